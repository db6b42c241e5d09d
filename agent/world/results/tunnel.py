"""mc-tunnel's result (bridge/helpers/tunnel.js): a 1x2 passage dug and walked along the facing."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Facing, Vec3
from agent.world.results.digging import DigRun

TunnelStop = Literal["completed", "fluid_ahead", "unbreakable", "blocked", "drop_ahead", "fell", "timeout", "stopped", "disconnected"]


class TunnelReport(DigRun):
    facing: Facing = Field(description="the cardinal dug along")
    start: Vec3
    end: Vec3
    distance: float = Field(description="blocks moved along the facing, measured")
    steps: int = Field(description="cells entered, dug or already free")
    stop_reason: TunnelStop
