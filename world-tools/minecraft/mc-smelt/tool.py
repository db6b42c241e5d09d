from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import BlockPos
from agent.mc.names import ItemName
from agent.world.making import MakeReport
from agent.world.toolkit import COUNTS, RADII, ToolArgs, menu, run_tool, stopped_unless_completed

# The arguments' bounds (here only: smelt.js takes the values as checked).
MAX_COUNT, MAX_RADIUS, MAX_TIMEOUT_S = 64, 32, 900


class Args(ToolArgs):
    item: ItemName = Field(description="what to make (iron_ingot) or what to smelt (raw_iron)",
                           json_schema_extra={"domain": "smeltable"})
    count: int = Field(1, ge=1, le=MAX_COUNT, description="how many to smelt; each takes 10 seconds",
                       json_schema_extra=COUNTS)
    fuel: ItemName | None = Field(None,
                                  description="the fuel to burn, e.g. coal or oak_planks; left out: the best carried",
                                  json_schema_extra={"domain": "fuel"})
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet to look for a furnace in",
                        json_schema_extra=RADII)
    timeout_s: float = Field(120, ge=1, le=MAX_TIMEOUT_S, description="seconds for the walk and the smelting",
                           json_schema_extra=menu(120, 240))



class Result(MakeReport):
    """mc-smelt: an item smelted in a furnace walked to or set down (bridge/helpers/smelt.js), with
    fuel from the inventory; the result counts what was made before and after."""

    input: str | None = Field(description="what was smelted")
    fuel: str | None
    fuel_used: int = Field(description="fuel items put in the furnace")
    furnace: BlockPos | None
    placed_furnace: bool = Field(description="the furnace was set down from the inventory for this")


def act(bot, a: Args):
    return bot.call("smelt", a.bridge_args(), timeout_s=a.timeout_s + timeouts.CALL_S)


def summarize(r: Result) -> str:
    if r.stop_reason == "refused":
        return f"refused: {r.detail}"
    return f"made {r.made} of {r.asked} {r.item} from {r.input}, burning {r.fuel_used} {r.fuel}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, stopped_unless_completed(summarize))
