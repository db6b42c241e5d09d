from pydantic import Field

from agent.bridge import timeouts
from agent.world.results.digging import digging_seconds
from agent.world.results.tunnel import TunnelReport
from agent.world.toolkit import BLOCKS, ToolArgs, run_tool, stopped_unless_completed

# A tunnel cell has two blocks to clear, feet and head (bridge/helpers/tunnel.js).
DIGS_PER_STEP = 2


class Args(ToolArgs):
    blocks: int = Field(1, ge=1, le=32, description="cells to advance", json_schema_extra=BLOCKS)


def act(bot, a: Args):
    limit = digging_seconds(a.blocks, DIGS_PER_STEP) + timeouts.CALL_S
    return bot.call("tunnel", a.bridge_args(), timeout_s=limit)


def summarize(r: TunnelReport) -> str:
    return (f"{r.stop_reason}: {r.distance:.2f} blocks {r.facing} in {r.steps} cells, dug {r.blocks_dug} blocks; "
            f"feet at {r.end.text()}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, TunnelReport, summarize, stopped_unless_completed(summarize),
                    feeds_map=True)
