"""mc-craft's and mc-smelt's results (bridge/helpers/craft.js, smelt.js): what was made, counted
in the inventory before and after, and what a refused recipe lacks. World blocks: x east, y up,
z south."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.names import Item
from agent.world.models import BlockPos, Model

MakeStop = Literal["completed", "incomplete", "refused", "not_found", "unreachable", "timeout", "stopped", "disconnected"]


class ItemChange(Model):
    name: str
    count: int = Field(description="gained (> 0) or lost (< 0), counted before and after")


class MakeReport(Model):
    """What crafting or smelting an item did."""

    item: str = Field(description="the item made")
    asked: int
    made: int = Field(description="how many more of it the inventory holds than before")
    stop_reason: MakeStop = Field(description="incomplete: fewer made than asked; refused: the inventory cannot make it")
    detail: str = Field(description="one line: what was made, or why it stopped")
    missing: list[Item] = Field(description="when refused: what the inventory lacks, by name and how many more")
    inventory_before: list[Item]
    inventory: list[Item] = Field(description="what the inventory holds afterwards")
    changes: list[ItemChange] = Field(description="every item whose count changed")


class CraftReport(MakeReport):
    table: BlockPos | None = Field(description="the crafting table used; None: the inventory's 2x2 grid")
    placed_table: bool = Field(description="the table was set down from the inventory for this")


class SmeltReport(MakeReport):
    input: str | None = Field(description="what was smelted")
    fuel: str | None
    fuel_used: int = Field(description="fuel items put in the furnace")
    furnace: BlockPos | None
    placed_furnace: bool = Field(description="the furnace was set down from the inventory for this")
