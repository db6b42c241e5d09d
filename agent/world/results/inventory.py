"""mc-inventory's result (bridge/helpers/inventory.js): what the bot carries and holds."""

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
