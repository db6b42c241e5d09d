"""mc-equip's result (bridge/helpers/inventory.js): the inventory after an item was put on or in hand."""

from __future__ import annotations

from agent.world.results.inventory import InventoryView


class Equipped(InventoryView):
    equipped: str
    destination: str
