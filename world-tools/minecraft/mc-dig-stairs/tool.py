from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.world.results.digging import digging_seconds
from agent.world.results.dig_stairs import DigStairsReport
from agent.world.toolkit import BLOCKS, ToolArgs, run_tool, stopped_unless_completed

# A stair clears up to three blocks (bridge/helpers/dig-stairs.js).
DIGS_PER_STEP = 3


class Args(ToolArgs):
    direction: Literal["up", "down"]
    steps: int = Field(1, ge=1, le=16, description="stairs to dig and climb", json_schema_extra=BLOCKS)


def act(bot, a: Args):
    limit = digging_seconds(a.steps, DIGS_PER_STEP) + timeouts.CALL_S
    return bot.call("digStairs", a.bridge_args(), timeout_s=limit)


def summarize(r: DigStairsReport) -> str:
    return (f"{r.stop_reason}: {r.steps} steps {r.direction} facing {r.facing}, height {r.height_gained:+.2f}, "
            f"dug {r.blocks_dug} blocks; feet at {r.end.text()}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, DigStairsReport, summarize, stopped_unless_completed(summarize),
                    feeds_map=True)
