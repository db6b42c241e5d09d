"""Where a structure goes when no one says: in front of a player, its near side AHEAD blocks
ahead of the player's cell, centred across the way it faces, its lowest layer at the feet.
The structure is placed as written, never turned: a stair's facing means the same wherever it goes."""

from __future__ import annotations

from agent.checks.model import Cell
from agent.mc.frame import STEPS
from agent.mc.geometry import Facing

AHEAD = 2  # blocks from the player's cell to the structure's near side: room to stand and to place


def in_front(feet: Cell, facing: Facing, size: tuple[int, int, int]) -> Cell:
    """The structure's lowest north-west corner for a player whose feet are in `feet` (a world
    cell), facing `facing`; `size` its box (x east, y up, z south)."""
    step_x, step_z = STEPS[facing]
    return (_corner(feet[0], step_x, size[0]), feet[1], _corner(feet[2], step_z, size[2]))


def _corner(at: int, step: int, length: int) -> int:
    """The box's least coordinate on one axis: ahead of `at` along the step, centred on it across."""
    if step > 0:
        return at + AHEAD
    if step < 0:
        return at - AHEAD - (length - 1)
    return at - length // 2
