"""How an eval seed varies a scenario: quarter turns about the spawn, an optional mirror, and
the spawn facing. Everything a scenario and its success check name in world coordinates goes
through one Transform, so the world and the check that judges it always move together.

Coordinates are world blocks: x east, y up, z south. A turn is clockwise seen from above with
north up (north -> east -> south -> west). The mirror swaps east and west (x -> -x about the
pivot), applied after the turns. Heights never change.
"""

from __future__ import annotations

import math
import random

from pydantic import BaseModel, ConfigDict, Field

from agent.mc.frame import STEPS
from agent.mc.geometry import Facing

CLOCKWISE: tuple[Facing, ...] = ("north", "east", "south", "west")
# Every (turns, mirror) but the identity: seeds 1..7 take them in this order, then repeat.
_VARIANTS = [(t, m) for m in (False, True) for t in range(4)][1:]


class Transform(BaseModel):
    """Quarter turns clockwise about the pivot column, then an optional east-west mirror; and the
    spawn facing the seed chose (None: the facing the file gives, transformed).

    The pivot is a block centre (x.5, z.5), so block cells map onto block cells."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    quarter_turns: int = Field(0, ge=0, le=3)
    mirror: bool = False
    pivot_x: float = 0.5
    pivot_z: float = 0.5
    spawn_facing: Facing | None = None

    @classmethod
    def for_seed(cls, seed: int, spawn_x: float, spawn_z: float) -> Transform:
        """Seed 0 is the file as written. Every other seed turns and/or mirrors the world about the
        spawn's block centre (seeds 1-7 are the seven non-identity variants) and picks a spawn facing."""
        pivot = {"pivot_x": math.floor(spawn_x) + 0.5, "pivot_z": math.floor(spawn_z) + 0.5}
        if seed == 0:
            return cls(**pivot)
        turns, mirror = _VARIANTS[(seed - 1) % len(_VARIANTS)]
        facing = random.Random(seed).choice(CLOCKWISE)
        return cls(quarter_turns=turns, mirror=mirror, spawn_facing=facing, **pivot)

    @property
    def identity(self) -> bool:
        return self.quarter_turns == 0 and not self.mirror and self.spawn_facing is None

    def point(self, x: float, y: float, z: float) -> tuple[float, float, float]:
        """A position (feet, entity) in world blocks."""
        dx, dz = self._turn(x - self.pivot_x, z - self.pivot_z)
        return self.pivot_x + dx, y, self.pivot_z + dz

    def cell(self, x: int, y: int, z: int) -> tuple[int, int, int]:
        """A block cell, named by its integer corner: its centre is transformed."""
        cx, _, cz = self.point(x + 0.5, y, z + 0.5)
        return math.floor(cx), y, math.floor(cz)

    def facing(self, facing: Facing) -> Facing:
        """A direction in the file, after the turns and the mirror."""
        dx, dz = self._turn(*STEPS[facing])
        return next(f for f, step in STEPS.items() if step == (round(dx), round(dz)))

    def spawn(self, facing: Facing) -> Facing:
        """The facing a player spawns with: the seed's choice, else the file's, transformed."""
        return self.spawn_facing or self.facing(facing)

    def _turn(self, dx: float, dz: float) -> tuple[float, float]:
        for _ in range(self.quarter_turns):
            dx, dz = -dz, dx  # clockwise from above: north (0,-1) -> east (1,0)
        return (-dx, dz) if self.mirror else (dx, dz)
