from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import BlockPos
from agent.mc.names import ItemName
from agent.world.making import MakeReport
from agent.world.toolkit import COUNTS, RADII, ToolArgs, menu, run_tool, stopped_unless_completed

# The arguments' bounds (here only: craft.js takes the values as checked).
MAX_COUNT, MAX_RADIUS, MAX_TIMEOUT_S = 576, 32, 300


class Args(ToolArgs):
    item: ItemName = Field(description="the item to make, e.g. oak_planks, stick, wooden_pickaxe",
                          json_schema_extra={"domain": "craftable"})
    count: int = Field(1, ge=1, le=MAX_COUNT, description="how many to make (a craft may make more)",
                       json_schema_extra=COUNTS)
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet to look for a crafting table in",
                        json_schema_extra=RADII)
    timeout_s: float = Field(60, ge=1, le=MAX_TIMEOUT_S, description="seconds for the walk and the crafting",
                           json_schema_extra=menu(60, 120))



class Result(MakeReport):
    """mc-craft: an item crafted from the inventory (bridge/helpers/craft.js), in the 2x2 grid or at
    a crafting table walked to or set down; the result counts what was made before and after."""

    table: BlockPos | None = Field(description="the crafting table used; None: the inventory's 2x2 grid")
    placed_table: bool = Field(description="the table was set down from the inventory for this")


def act(bot, a: Args):
    return bot.call("craft", a.bridge_args(), timeout_s=a.timeout_s + timeouts.CALL_S)


def summarize(r: Result) -> str:
    if r.stop_reason == "refused":
        return f"refused: {r.detail}"
    where = f" at the crafting table at ({r.table.x}, {r.table.y}, {r.table.z})" if r.table else ""
    return f"made {r.made} of {r.asked} {r.item}{where}; {_spent(r)}"


def _spent(r: Result) -> str:
    return "changes: " + (", ".join(f"{c.count:+d} {c.name}" for c in r.changes) or "none")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, stopped_unless_completed(summarize))
