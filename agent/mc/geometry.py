"""Where things are in the world and which way they face.

Positions are world coordinates in blocks (x east, y up, z south)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """What the world reports, as read: no field it did not name, and no change once read."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Vec3(Frozen):
    """A point or displacement in world coordinates, blocks."""

    x: float
    y: float
    z: float

    def distance_to(self, other: Vec3) -> float:
        return ((self.x - other.x) ** 2 + (self.y - other.y) ** 2 + (self.z - other.z) ** 2) ** 0.5

    def text(self) -> str:
        """'x=0.50 y=5.00 z=0.50': a position as every summary writes it."""
        return f"x={self.x:.2f} y={self.y:.2f} z={self.z:.2f}"


class BlockPos(Frozen):
    """A block's position: the world coordinates of its corner (x east, y up, z south)."""

    x: int
    y: int
    z: int


Facing = Literal["north", "east", "south", "west"]
