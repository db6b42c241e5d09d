from typing import Literal

from pydantic import Field

from agent.bridge.models import MAX_CHAT_LENGTH
from agent.mc.geometry import Frozen
from agent.world.toolkit import ToolArgs, call, run_tool, stopped_unless_completed

# "/tell <name> " comes before the text in the one chat line: 6 + 16 + 1 characters.
COMMAND_CHARS = 23


class Args(ToolArgs):
    player: str = Field(min_length=1, max_length=16, pattern=r"^\w+$", description="the username of the player to tell",
                        json_schema_extra={"domain": "player"})
    text: str = Field(min_length=1, max_length=MAX_CHAT_LENGTH - COMMAND_CHARS, description="the message")


class Result(Frozen):
    """mc-tell's result (bridge/helpers/tell.js): the line whispered to one player."""

    player: str
    sent: str | None = Field(description="the text whispered; None when nothing was sent")
    stop_reason: Literal["completed", "not_found"]
    detail: str


def summarize(r: Result) -> str:
    return f"told {r.player}: {r.sent}" if r.sent is not None else r.detail


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("tell"), Result, summarize, stopped_unless_completed(summarize))
