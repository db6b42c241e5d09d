from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import Facing, Vec3
from agent.world.digging import DigRun, digging_seconds
from agent.world.toolkit import BLOCKS, ToolArgs, run_tool, stopped_unless_completed

# A tunnel cell has two blocks to clear, feet and head (bridge/helpers/tunnel.js).
DIGS_PER_STEP = 2


class Args(ToolArgs):
    blocks: int = Field(1, ge=1, le=32, description="cells to advance", json_schema_extra=BLOCKS)


TunnelStop = Literal["completed", "fluid_ahead", "unbreakable", "blocked", "drop_ahead", "fell", "timeout", "stopped", "disconnected"]


class Result(DigRun):
    """mc-tunnel's result (bridge/helpers/tunnel.js): a 1x2 passage dug and walked along the facing."""

    facing: Facing = Field(description="the cardinal dug along")
    start: Vec3
    end: Vec3
    distance: float = Field(description="blocks moved along the facing, measured")
    steps: int = Field(description="cells entered, dug or already free")
    stop_reason: TunnelStop


def act(bot, a: Args):
    limit = digging_seconds(a.blocks, DIGS_PER_STEP) + timeouts.CALL_S
    return bot.call("tunnel", a.bridge_args(), timeout_s=limit)


def summarize(r: Result) -> str:
    return (f"{r.stop_reason}: {r.distance:.2f} blocks {r.facing} in {r.steps} cells, dug {r.blocks_dug} blocks; "
            f"feet at {r.end.text()}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, stopped_unless_completed(summarize),
                    feeds_map=True)
