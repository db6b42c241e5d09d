"""What the Minecraft world tools return, as typed models (the `data` of their results).

World positions are blocks (x east, y up, z south). Egocentric offsets are whole
blocks from the feet block: forward, right, up, with the facing snapped to its
cardinal. Angles are degrees: yaw 0 = south, 90 = west, 180 = north, -90 = east;
pitch > 0 looks down.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from agent.bridge.models import BotState, Facing, Vec3


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Status(BotState):
    vertical_state: Literal["stable", "falling"]


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


class BlockPos(Model):
    x: int
    y: int
    z: int


class Observation(Model):
    facing: Facing
    feet: BlockPos
    radius: int
    free: Free
    footing_ahead: str | None = Field(description="the block at forward 1, up -1")
    clearance_ahead: Clearance
    sky_visible: bool
    drop_ahead: int = Field(description="open blocks straight down from forward 1, up -1; 0 = solid footing")
    open_terrain: bool
    hazards: list[Hazard]
    counts: dict[str, int]
    grid: Grid


class DigReport(Model):
    block: str
    position: Vec3
    gone: bool
    now: str | None


class PlaceReport(Model):
    item: str
    position: Vec3
    placed: bool
    now: str | None
    against: str


class Item(Model):
    name: str
    count: int
    slot: int


class InventoryView(Model):
    items: list[Item]
    held: Item | None
    empty_slots: int


class Equipped(InventoryView):
    equipped: str
    destination: str


class Respawned(BotState):
    respawned: bool


class GotoReport(Model):
    reached: bool
    reason: str
    start: Vec3
    end: Vec3
    target: Vec3
    distance_left: float


class Said(Model):
    sent: str


class Stopped(Model):
    released: bool
    yaw_deg: float
    pitch_deg: float
    facing: Facing
