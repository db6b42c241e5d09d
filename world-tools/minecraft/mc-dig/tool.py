from agent.bridge import timeouts
from agent.world.results.dig import DigReport
from agent.world.toolkit import BlockTarget, call, run_tool

# bridge/helpers/dig.js gives up after 15 s of digging.
DIG_S = 15.0


Args = BlockTarget


def summarize(d: DigReport) -> str:
    p = d.position
    return f"dug {d.block} at ({p.x:g}, {p.y:g}, {p.z:g}); now {d.now}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("dig", timeout_s=DIG_S + timeouts.CALL_S), DigReport, summarize,
                    feeds_map=True)
