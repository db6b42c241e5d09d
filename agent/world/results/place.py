"""mc-place's result (bridge/helpers/place.js): one block placed, read back afterwards."""

from __future__ import annotations

from agent.mc.geometry import Vec3
from agent.world.models import Model


class PlaceReport(Model):
    item: str
    position: Vec3
    placed: bool
    now: str | None
    against: str
