from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from agent.bridge import timeouts
from agent.mc.geometry import BlockPos, Frozen
from agent.mc.names import MAX_ITEM_COUNT, Item, ItemName
from agent.world.toolkit import COUNTS, RADII, ToolArgs, menu, run_tool, stopped_unless_completed

# The arguments' bounds (here only: chest.js takes the values as checked).
MAX_RADIUS, MAX_TIMEOUT_S = 32, 120


class Args(ToolArgs):
    # The grammar's forms (agent/tools/schema.py's Form): a deposit names an item carried, a
    # withdrawal an item there is (what the chest holds is read only once it is open).
    model_config = ConfigDict(json_schema_extra={"forms": [
        {"fixed": {"action": {"enum": ["list"]}}, "absent": ["item", "count"]},
        {"required": ["action", "item"], "fixed": {"action": {"enum": ["deposit"]}, "item": {"domain": "carried"}}},
        {"required": ["action", "item"], "fixed": {"action": {"enum": ["withdraw"]}, "item": {"domain": "obtainable"}}}]})
    action: Literal["list", "deposit", "withdraw"] = Field(
        "list", description="list, deposit (put in) or withdraw (take out)")
    item: ItemName | None = Field(None, description="the item's name, e.g. oak_log; needed to deposit or withdraw")
    count: int | None = Field(None, ge=1, le=MAX_ITEM_COUNT, description="how many; left out: all there are",
                              json_schema_extra=COUNTS)
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet to look for a chest in",
                        json_schema_extra=RADII)
    timeout_s: float = Field(30, ge=1, le=MAX_TIMEOUT_S, description="seconds for the walk and the chest",
                           json_schema_extra=menu(30, 60))

    @model_validator(mode="after")
    def _item_to_move(self):
        if self.action != "list" and self.item is None:
            raise ValueError(f"{self.action} needs the item's name")
        return self



ChestAction = Literal["list", "deposit", "withdraw"]
ChestStop = Literal["completed", "not_found", "unreachable", "incomplete", "timeout"]


class Result(Frozen):
    """mc-chest's result (bridge/helpers/chest.js): the nearest chest walked to, items put in or taken
    out, and what it holds read back by opening it again. World blocks: x east, y up, z south."""

    action: ChestAction
    item: str | None
    asked: int | None = Field(description="items asked to move; None: all there were")
    moved: int = Field(description="items the inventory lost (deposit) or gained (withdraw), counted before and after")
    stop_reason: ChestStop = Field(description="incomplete: fewer were there than asked, and all of them moved")
    detail: str = Field(description="one line: the chest's place, or why it stopped")
    chest: BlockPos | None = Field(description="the chest used; None when none was reached")
    chest_items: list[Item] = Field(description="what the chest holds afterwards, read back by opening it again")
    inventory: list[Item] = Field(description="what the inventory holds afterwards, by name")


def act(bot, a: Args):
    return bot.call("chest", a.bridge_args(), timeout_s=a.timeout_s + timeouts.CALL_S)


def summarize(r: Result) -> str:
    held = ", ".join(f"{i.count} {i.name}" for i in r.chest_items) or "nothing"
    if r.chest is None:
        return f"{r.stop_reason}: {r.detail}"
    moved = "" if r.action == "list" else f"{'put in' if r.action == 'deposit' else 'took out'} {r.moved} {r.item}; "
    return f"{moved}the chest at ({r.chest.x}, {r.chest.y}, {r.chest.z}) holds {held}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, stopped_unless_completed(summarize), feeds_map=True)
