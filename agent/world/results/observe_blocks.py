"""mc-observe-blocks' result (bridge/helpers/observe.js): the blocks around the bot, egocentric."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Facing
from agent.world.models import BlockPos, Model


class Free(Model):
    """Free blocks before the first obstruction, capped at the radius (0 = blocked at once)."""

    forward: int
    back: int
    left: int
    right: int
    up: int = Field(description="above the head")
    down: int = Field(description="below the feet")


class Clearance(Model):
    feet: bool
    head: bool


class Hazard(Model):
    kind: Literal["lava", "fire", "water", "cactus", "drop"]
    block: str | None
    forward: int
    right: int
    up: int
    distance: float
    depth: int | None = Field(None, description="drops only: open blocks below")


class Grid(Model):
    layout: str
    palette: dict[str, str | None]
    layers: list[list[str]]


class Observation(Model):
    facing: Facing
    feet: BlockPos
    radius: int
    free: Free
    footing_ahead: str | None = Field(description="the block at forward 1, up -1")
    clearance_ahead: Clearance
    step_up_ahead: bool = Field(
        description="the block ahead at feet level is solid, the two above it free and the one above the head too: "
        "a step mc-move climbs")
    sky_visible: bool
    drop_ahead: int = Field(description="open blocks straight down from forward 1, up -1; 0 = solid footing")
    open_terrain: bool
    hazards: list[Hazard]
    counts: dict[str, int]
    grid: Grid
