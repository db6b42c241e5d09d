"""The egocentric frame, as bridge/helpers/frame.js keeps it: `forward` along the facing snapped
to its cardinal, `right` to its right hand, in whole blocks; world x east, z south."""

from __future__ import annotations

from agent.mc.geometry import Facing

# Unit steps (dx, dz) of each facing.
STEPS: dict[Facing, tuple[int, int]] = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


def _axes(facing: Facing) -> tuple[int, int, int, int]:
    fx, fz = STEPS[facing]
    return fx, fz, -fz, fx  # the right hand: facing north (0, -1), right is east (1, 0)


def to_world(forward: int, right: int, facing: Facing) -> tuple[int, int]:
    """The world (dx, dz) of an egocentric (forward, right)."""
    fx, fz, rx, rz = _axes(facing)
    return forward * fx + right * rx, forward * fz + right * rz


def to_ego(dx: int, dz: int, facing: Facing) -> tuple[int, int]:
    """The egocentric (forward, right) of a world (dx, dz)."""
    fx, fz, rx, rz = _axes(facing)
    return dx * fx + dz * fz, dx * rx + dz * rz
