from pydantic import Field

from agent.bridge.models import MAX_CHAT_LENGTH
from agent.mc.geometry import Frozen
from agent.world.toolkit import ToolArgs, call, run_tool


class Args(ToolArgs):
    text: str = Field(min_length=1, max_length=MAX_CHAT_LENGTH, description="the message")


class Result(Frozen):
    """mc-say's result (bridge/helpers/say.js): the chat line sent."""

    sent: str


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("chat"), Result, lambda s: f"said: {s.sent}")
