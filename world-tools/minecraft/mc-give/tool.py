from typing import Literal

from pydantic import ConfigDict, Field

from agent.bridge import timeouts
from agent.mc.geometry import Frozen
from agent.mc.names import MAX_ITEM_COUNT, Item, ItemName
from agent.world.toolkit import COUNTS, ToolArgs, menu, run_tool, stopped_unless_completed

# The arguments' bounds (here only: give.js takes the values as checked).
MAX_TIMEOUT_S = 60


class Args(ToolArgs):
    model_config = ConfigDict(json_schema_extra={"forms": [{"required": ["player", "item"]}]})
    player: str = Field(min_length=1, max_length=16, pattern=r"^\w+$", description="the username of the player to hand to",
                        json_schema_extra={"domain": "player"})
    item: ItemName = Field(description="the item's name, e.g. iron_ingot", json_schema_extra={"domain": "carried"})
    count: int | None = Field(None, ge=1, le=MAX_ITEM_COUNT, description="how many; left out: all carried",
                              json_schema_extra=COUNTS)
    timeout_s: float = Field(20, ge=1, le=MAX_TIMEOUT_S, description="seconds for the walk, the throw and the pickup",
                             json_schema_extra=menu(20, 40))


GiveStop = Literal["completed", "not_found", "unreachable", "incomplete", "timeout"]


class Result(Frozen):
    """mc-give's result (bridge/helpers/give.js): items thrown to a player from nearby and how many
    the server says that player picked up, counted item by item."""

    player: str
    item: str
    asked: int | None = Field(description="items asked to hand over; None: all carried")
    thrown: int = Field(description="items the giver's inventory lost, counted before and after")
    received: int = Field(description="of those, items the server says the player picked up")
    stop_reason: GiveStop = Field(description="incomplete: the player did not pick up all that was thrown")
    detail: str = Field(description="one line: what the player picked up, or why it stopped")
    inventory: list[Item] = Field(description="what the giver holds afterwards, by name")


def act(bot, a: Args):
    return bot.call("give", a.bridge_args(), timeout_s=a.timeout_s + timeouts.CALL_S)


def summarize(r: Result) -> str:
    return f"{r.player} picked up {r.received} of {r.thrown} {r.item} thrown"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, stopped_unless_completed(summarize))
