"""What the bot carries and holds, as bridge/helpers/inventory.js reads it: mc-inventory's result, and
mc-equip's after equipping."""

from __future__ import annotations

from agent.world.models import Model


class Item(Model):
    name: str
    count: int
    slot: int


class InventoryView(Model):
    items: list[Item]
    held: Item | None
    empty_slots: int
