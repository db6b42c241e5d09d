"""What mc-craft's and mc-smelt's results share (bridge/helpers/making.js): what was made,
counted in the inventory before and after, and what a refused recipe lacks. World blocks: x
east, y up, z south."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Frozen
from agent.mc.names import Item

MakeStop = Literal["completed", "incomplete", "refused", "not_found", "unreachable", "timeout", "stopped", "disconnected"]


class ItemChange(Frozen):
    name: str
    count: int = Field(description="gained (> 0) or lost (< 0), counted before and after")


class MakeReport(Frozen):
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
