from pydantic import Field

from agent.bridge import timeouts
from agent.world.results.tunnel import TunnelReport
from agent.world.toolkit import ToolArgs, run_tool

# bridge/helpers/digging.js: a dig is at most 10 s of digging plus 2 s for the server's word;
# walking into the next cell at most 3 s, landing 2 s more. A cell has two blocks to dig.
DIG_S, MOVE_S, CELLS_PER_STEP = 12.0, 5.0, 2


class Args(ToolArgs):
    blocks: int = Field(1, ge=1, le=32)


def act(bot, a: Args):
    limit = a.blocks * (CELLS_PER_STEP * DIG_S + MOVE_S) + timeouts.CALL_S
    return bot.call("tunnel", a.bridge_args(), timeout_s=limit)


def summarize(r: TunnelReport) -> str:
    return (f"{r.stop_reason}: {r.distance:.2f} blocks {r.facing} in {r.steps} cells, dug {r.blocks_dug} blocks; "
            f"feet at x={r.end.x:.2f} y={r.end.y:.2f} z={r.end.z:.2f}")


def judge(r: TunnelReport):
    return None if r.stop_reason == "completed" else (r.stop_reason, f"{r.detail}; {summarize(r)}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, TunnelReport, summarize, judge, feeds_map=True)
