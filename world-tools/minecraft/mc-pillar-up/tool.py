from pydantic import Field

from agent.bridge import timeouts
from agent.world.results.pillar_up import PillarUpReport
from agent.world.toolkit import BLOCKS, ToolArgs, run_tool, stopped_unless_completed

# bridge/helpers/pillar-up.js: a step waits at most 2 s to be at rest first (stepwise.js), then
# 1 s for the jump, 2 s for the placement and 2 s to land.
STEP_S = 7.0


class Args(ToolArgs):
    blocks: int = Field(1, ge=1, le=16, description="blocks to climb", json_schema_extra=BLOCKS)
    item: str | None = Field(None, description="a full block to build with, e.g. dirt; "
                                               "default: a cheap one carried (dirt, cobblestone first)",
                               json_schema_extra={"domain": "placeable"})


def act(bot, a: Args):
    return bot.call("pillarUp", a.bridge_args(), timeout_s=a.blocks * STEP_S + timeouts.CALL_S)


def summarize(r: PillarUpReport) -> str:
    return (f"{r.stop_reason}: climbed {r.height_gained:+.2f} blocks in {r.steps} steps with {r.blocks_used} {r.item}, "
            f"{r.blocks_left} left; feet at {r.end.text()}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, PillarUpReport, summarize, stopped_unless_completed(summarize),
                    feeds_map=True)
