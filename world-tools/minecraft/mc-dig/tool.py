from functools import partial

from agent.bridge import timeouts
from agent.goals.builds import Cell, kept
from agent.mc.geometry import Frozen, Vec3
from agent.world.toolkit import BlockTarget, run_tool

# bridge/helpers/dig.js gives up after 15 s of digging.
DIG_S = 15.0


Args = BlockTarget


class Result(Frozen):
    """mc-dig's result (bridge/helpers/dig.js): one block dug, read back afterwards."""

    block: str
    position: Vec3
    gone: bool
    now: str | None


def act(build: dict[Cell, str], bot, a: Args):
    """The digging, refused (dig.js) at a cell of the goal's build."""
    return bot.call("dig", {**a.bridge_args(), "avoid": [list(cell) for cell in build]}, timeout_s=DIG_S + timeouts.CALL_S)


def summarize(d: Result) -> str:
    p = d.position
    return f"dug {d.block} at ({p.x:g}, {p.y:g}, {p.z:g}); now {d.now}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, partial(act, kept(kwargs.get("executor"))), Result, summarize, feeds_map=True)
