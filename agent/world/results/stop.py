"""mc-stop's result (bridge/helpers/motion.js): controls released, and where the bot faces."""

from __future__ import annotations

from agent.mc.geometry import Facing
from agent.world.models import Model


class Stopped(Model):
    released: bool
    yaw_deg: float
    pitch_deg: float
    facing: Facing
