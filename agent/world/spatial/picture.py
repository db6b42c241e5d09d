"""A top-down picture of the map: one mark per column, north up (rows run north to south,
z growing; columns west to east, x growing).

A column is judged over a band of feet levels (one level for the bot's own picture, the
path's levels for a run's report), in this order: a frontier in the band; a feet block stood
in; water or a hazard at feet level or as the footing; a free feet cell; a solid feet cell
(a wall); else unknown.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from agent.mc.geometry import Facing
from agent.world.spatial.cells import KIND_BITS, VISIT_SHIFT
from agent.world.spatial.survey import Kind


class Mark(IntEnum):
    UNKNOWN = 0
    WALL = 1
    FREE = 2
    WET = 3  # water or a hazard
    VISITED = 4
    FRONTIER = 5


GLYPHS = {Mark.UNKNOWN: " ", Mark.WALL: "#", Mark.FREE: ".", Mark.WET: "~", Mark.VISITED: "o", Mark.FRONTIER: "+"}
BOT = {"north": "^", "east": ">", "south": "v", "west": "<"}
LEGEND = ("north is up; # wall, . free, o stood in, + frontier, ~ water or hazard, blank unknown; "
          "the bot is ^ > v < facing north, east, south, west")
_GLYPH_TABLE = np.array([GLYPHS[m] for m in Mark])


def marks(cells: np.ndarray, frontier: np.ndarray) -> np.ndarray:
    """Marks [x, z] (Mark values) of a band of feet levels.

    `cells`: map bytes [x, y, z] of the band with one more level below it (the lowest feet
    level's footing); `frontier`: bool [x, y, z] of the band's feet levels."""
    kinds = cells & KIND_BITS
    feet, footing = kinds[:, 1:, :], kinds[:, :-1, :]
    wet = (feet == Kind.WATER) | (feet == Kind.HAZARD) | (footing == Kind.WATER) | (footing == Kind.HAZARD)
    layers = [  # lowest priority first: each later one paints over
        (feet == Kind.SOLID, Mark.WALL),
        (feet == Kind.FREE, Mark.FREE),
        (wet, Mark.WET),
        ((cells[:, 1:, :] >> VISIT_SHIFT) > 0, Mark.VISITED),
        (frontier, Mark.FRONTIER),
    ]
    out = np.zeros((cells.shape[0], cells.shape[2]), dtype=np.uint8)
    for mask, mark in layers:
        out[mask.any(axis=1)] = mark
    return out


def render(plan: np.ndarray, bot: tuple[int, int, Facing] | None = None) -> list[str]:
    """Rows of glyphs, north first, from marks [x, z]; `bot` = (x index, z index, facing) draws the bot."""
    chars = _GLYPH_TABLE[plan.T]
    if bot is not None:
        i, k, facing = bot
        chars[k, i] = BOT[facing]
    return ["".join(row) for row in chars]
