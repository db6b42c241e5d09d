"""A pathfinder walk to a position (bridge/helpers/goto.js): mc-goto's result, and each leg mc-explore walks."""

from __future__ import annotations

from pydantic import Field

from agent.mc.geometry import Frozen, Vec3


class GotoReport(Frozen):
    reached: bool
    reason: str
    start: Vec3
    end: Vec3
    target: Vec3
    distance_left: float = Field(description="blocks; for an exact goal, between the feet block and the target block")
    blocks_placed: int = Field(0, description="blocks pathfinder placed on the way (allow_build)")
    blocks_dug: int = Field(0, description="blocks pathfinder dug on the way (allow_dig)")
