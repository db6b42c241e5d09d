from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import Facing, Vec3
from agent.world.digging import DigRun, digging_seconds
from agent.world.toolkit import BLOCKS, ToolArgs, run_tool, stopped_unless_completed

# A stair clears up to three blocks (bridge/helpers/dig-stairs.js).
DIGS_PER_STEP = 3


class Args(ToolArgs):
    direction: Literal["up", "down"]
    steps: int = Field(1, ge=1, le=16, description="stairs to dig and climb", json_schema_extra=BLOCKS)


DigStairsStop = Literal["completed", "fluid_ahead", "unbreakable", "blocked", "drop_ahead", "fell", "timeout", "stopped", "disconnected"]


class Result(DigRun):
    """mc-dig-stairs' result (bridge/helpers/dig-stairs.js): a staircase dug up or down along the facing."""

    direction: Literal["up", "down"]
    facing: Facing = Field(description="the cardinal dug along")
    start: Vec3
    end: Vec3
    height_gained: float = Field(description="blocks: end feet y minus start feet y, measured (negative going down)")
    steps: int = Field(description="steps ended standing on the next stair")
    stop_reason: DigStairsStop


def act(bot, a: Args):
    limit = digging_seconds(a.steps, DIGS_PER_STEP) + timeouts.CALL_S
    return bot.call("digStairs", a.bridge_args(), timeout_s=limit)


def summarize(r: Result) -> str:
    return (f"{r.stop_reason}: {r.steps} steps {r.direction} facing {r.facing}, height {r.height_gained:+.2f}, "
            f"dug {r.blocks_dug} blocks; feet at {r.end.text()}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, stopped_unless_completed(summarize),
                    feeds_map=True)
