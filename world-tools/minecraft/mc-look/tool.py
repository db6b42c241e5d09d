from typing import Literal

from pydantic import Field

from agent.bridge.models import Orientation
from agent.world.toolkit import ToolArgs, run_tool


class Args(ToolArgs):
    yaw: float | None = None
    pitch: float | None = Field(None, ge=-90, le=90)
    facing: Literal["north", "east", "south", "west"] | None = None
    snap: bool | None = None
    x: float | None = None
    y: float | None = None
    z: float | None = None


def act(bot, a: Args):
    args = a.bridge_args()
    renamed = {"yaw": "yaw_deg", "pitch": "pitch_deg"}
    return bot.call("look", {renamed.get(k, k): v for k, v in args.items()})


def summarize(o: Orientation) -> str:
    return f"facing {o.facing} (yaw {o.yaw_deg:.1f}, pitch {o.pitch_deg:.1f})"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Orientation, summarize)
