from pydantic import Field

from agent.bridge.models import MAX_CHAT_LENGTH
from agent.world.results.say import Said
from agent.world.toolkit import ToolArgs, call, run_tool


class Args(ToolArgs):
    text: str = Field(min_length=1, max_length=MAX_CHAT_LENGTH, description="the message")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("chat"), Said, lambda s: f"said: {s.sent}")
