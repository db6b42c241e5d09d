"""mc-dig's result (bridge/helpers/dig.js): one block dug, read back afterwards."""

from __future__ import annotations

from agent.mc.geometry import Vec3
from agent.world.models import Model


class DigReport(Model):
    block: str
    position: Vec3
    gone: bool
    now: str | None
