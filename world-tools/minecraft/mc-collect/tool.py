from pydantic import Field

from agent.bridge import timeouts
from agent.mc.names import BlockName
from agent.world.results.collect import CollectReport
from agent.world.toolkit import COUNTS, RADII, ToolArgs, WorldCell, menu, run_tool, stopped_unless_completed

# The arguments' bounds (here only: collect.js takes the values as checked).
MAX_COUNT, MAX_RADIUS, MAX_TIMEOUT_S, MAX_AVOID = 16, 32, 300, 512


class Args(ToolArgs):
    block: BlockName = Field(description="the block or the item wanted, e.g. oak_log, cobblestone (dug from stone), sand",
                            json_schema_extra={"domain": "block_seen"})
    count: int = Field(1, ge=1, le=MAX_COUNT, description="blocks to dig", json_schema_extra=COUNTS)
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet to look in", json_schema_extra=RADII)
    timeout: float = Field(60, ge=1, le=MAX_TIMEOUT_S, description="seconds for the whole collecting",
                           json_schema_extra=menu(60, 120))
    avoid: list[WorldCell] = Field([], max_length=MAX_AVOID,
                                   description="world cells [x, y, z] never to dig, such as a build's own blocks")

    def bridge_args(self):
        return {"block": self.block, "count": self.count, "radius": self.radius, "timeout_s": self.timeout,
                "avoid": [list(c) for c in self.avoid]}


def act(bot, a: Args):
    return bot.call("collect", a.bridge_args(), timeout_s=a.timeout + timeouts.CALL_S)


def summarize(r: CollectReport) -> str:
    gained = ", ".join(f"{n} {name}" for name, n in r.gained.items()) or "nothing"
    return f"{r.stop_reason}: dug {r.blocks_dug} of {r.asked} {r.block}; the inventory gained {gained}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, CollectReport, summarize, stopped_unless_completed(summarize),
                    feeds_map=True)
