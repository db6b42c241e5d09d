"""What the bot carries and holds, as bridge/helpers/inventory.js reads it: mc-inventory's result, and
mc-equip's after equipping."""

from __future__ import annotations

from agent.mc.geometry import Frozen


class Item(Frozen):
    name: str
    count: int
    slot: int


class InventoryView(Frozen):
    items: list[Item]
    held: Item | None
    empty_slots: int
