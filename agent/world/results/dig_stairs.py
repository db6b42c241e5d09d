"""mc-dig-stairs' result (bridge/helpers/dig-stairs.js): a staircase dug up or down along the facing."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Facing, Vec3
from agent.world.results.digging import DigRun

DigStairsStop = Literal["completed", "fluid_ahead", "unbreakable", "blocked", "drop_ahead", "fell", "timeout", "stopped", "disconnected"]


class DigStairsReport(DigRun):
    direction: Literal["up", "down"]
    facing: Facing = Field(description="the cardinal dug along")
    start: Vec3
    end: Vec3
    height_gained: float = Field(description="blocks: end feet y minus start feet y, measured (negative going down)")
    steps: int = Field(description="steps ended standing on the next stair")
    stop_reason: DigStairsStop
