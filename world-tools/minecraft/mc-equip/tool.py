from typing import Literal

from pydantic import Field

from agent.world.inventory import InventoryView
from agent.world.toolkit import ToolArgs, call, run_tool


class Args(ToolArgs):
    # The model may guess a name the bot does not carry: only a name an earlier result showed
    # (or the goal gives) is used (verified: false, agent/tools/slots.py).
    item: str = Field(description="an item name as mc-inventory lists it, e.g. stone_pickaxe", json_schema_extra={
        "prompt": "Which item should the bot hold? Call mc-inventory to see what it carries.", "verified": False,
        "domain": "carried"})
    destination: Literal["hand", "off-hand", "head", "torso", "legs", "feet"] = "hand"


class Result(InventoryView):
    """mc-equip's result (bridge/helpers/equip.js): the inventory after an item was put on or in hand."""

    equipped: str
    destination: str


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("equip"), Result, lambda e: f"{e.equipped} in {e.destination}")
