"""mc-chest's result (bridge/helpers/chest.js): the nearest chest walked to, items put in or taken
out, and what it holds read back by opening it again. World blocks: x east, y up, z south."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.names import Item
from agent.world.models import BlockPos, Model

ChestAction = Literal["list", "deposit", "withdraw"]
ChestStop = Literal["completed", "not_found", "unreachable", "incomplete", "timeout"]


class ChestReport(Model):
    action: ChestAction
    item: str | None
    asked: int | None = Field(description="items asked to move; None: all there were")
    moved: int = Field(description="items the inventory lost (deposit) or gained (withdraw), counted before and after")
    stop_reason: ChestStop = Field(description="incomplete: fewer were there than asked, and all of them moved")
    detail: str = Field(description="one line: the chest's place, or why it stopped")
    chest: BlockPos | None = Field(description="the chest used; None when none was reached")
    chest_items: list[Item] = Field(description="what the chest holds afterwards, read back by opening it again")
    inventory: list[Item] = Field(description="what the inventory holds afterwards, by name")
