"""One survey: what the bot could know of the box around it (bridge/helpers/map.js `survey`).

World blocks: x east, y up, z south. The box starts at `origin` and is `size` = (dx, dy, dz)
blocks; its cells come x-major, then y, then z, one class letter each.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from agent.mc.geometry import BlockPos, Facing


class Kind(IntEnum):
    """What a cell is known to be. UNKNOWN is 0 so that a new chunk of zeros knows nothing."""

    UNKNOWN = 0
    FREE = 1  # the body passes: air, grass, flowers
    SOLID = 2
    HAZARD = 3  # lava, fire, cactus, ...
    WATER = 4


# The bridge's class letters (map.js), and their kinds as a lookup table over byte values.
LETTERS = {"?": Kind.UNKNOWN, ".": Kind.FREE, "#": Kind.SOLID, "!": Kind.HAZARD, "~": Kind.WATER}
_BY_BYTE = np.zeros(256, dtype=np.uint8)
for _letter, _kind in LETTERS.items():
    _BY_BYTE[ord(_letter)] = _kind


class Survey(BaseModel):
    """A box of cells around the feet block, with the bot's feet and facing when it was taken."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    origin: BlockPos = Field(description="world block of the box's lowest x, y, z corner")
    size: tuple[int, int, int] = Field(description="(dx, dy, dz), blocks")
    cells: str = Field(description="one class letter per cell (see LETTERS), x-major, then y, then z")
    sky_from: list[int] = Field(description="per column (x-major, then z): the lowest world y open to the sky")
    feet: BlockPos
    facing: Facing

    @model_validator(mode="after")
    def _sizes_agree(self) -> Survey:
        dx, dy, dz = self.size
        if len(self.cells) != dx * dy * dz or len(self.sky_from) != dx * dz:
            raise ValueError(f"a {dx}x{dy}x{dz} survey needs {dx * dy * dz} cells and {dx * dz} columns")
        if set(self.cells) - set(LETTERS):
            raise ValueError(f"unknown cell letters {sorted(set(self.cells) - set(LETTERS))}")
        return self

    def kinds(self) -> np.ndarray:
        """Kind codes, uint8 indexed [x, y, z] from the origin."""
        return _BY_BYTE[np.frombuffer(self.cells.encode("ascii"), dtype=np.uint8)].reshape(self.size)

    def sky(self) -> np.ndarray:
        """Bool [x, y, z]: nothing opaque above the cell up to the top of the world."""
        dx, dy, dz = self.size
        heights = self.origin.y + np.arange(dy)
        return heights[None, :, None] >= np.asarray(self.sky_from).reshape(dx, 1, dz)
