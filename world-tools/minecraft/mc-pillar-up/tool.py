from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import Frozen, Vec3
from agent.world.toolkit import BLOCKS, ToolArgs, run_tool, stopped_unless_completed

# bridge/helpers/pillar-up.js: a step waits at most 2 s to be at rest first (stepwise.js), then
# 1 s for the jump, 2 s for the placement and 2 s to land.
STEP_S = 7.0


class Args(ToolArgs):
    blocks: int = Field(1, ge=1, le=16, description="blocks to climb", json_schema_extra=BLOCKS)
    item: str | None = Field(None, description="a full block to build with, e.g. dirt; "
                                               "default: a cheap one carried (dirt, cobblestone first)",
                               json_schema_extra={"domain": "placeable"})


PillarStop = Literal["completed", "no_blocks", "blocked_above", "place_failed", "fell", "stopped", "disconnected"]


class Result(Frozen):
    """mc-pillar-up's result (bridge/helpers/pillar-up.js): climbing by placing blocks under the feet."""

    item: str | None = Field(description="the block placed; None when the inventory held none")
    start: Vec3
    end: Vec3
    height_gained: float = Field(description="blocks: end feet y minus start feet y, measured")
    blocks_used: int = Field(description="blocks read back in place under the feet")
    blocks_left: int = Field(description="of that item, in the inventory afterwards")
    steps: int = Field(description="jumps that ended standing on the new block")
    stop_reason: PillarStop
    detail: str = Field(description="one line: why it stopped")


def act(bot, a: Args):
    return bot.call("pillarUp", a.bridge_args(), timeout_s=a.blocks * STEP_S + timeouts.CALL_S)


def summarize(r: Result) -> str:
    return (f"{r.stop_reason}: climbed {r.height_gained:+.2f} blocks in {r.steps} steps with {r.blocks_used} {r.item}, "
            f"{r.blocks_left} left; feet at {r.end.text()}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, stopped_unless_completed(summarize),
                    feeds_map=True)
