"""Named shapes as world cells, for mc-build: a wall across the way the bot faces, a pillar
ahead of it. World blocks: x east, y up, z south; `forward` and `right` are egocentric whole
blocks from the feet block, the facing snapped to its cardinal (agent/mc/frame.py)."""

from __future__ import annotations

from typing import Literal

from agent.checks.model import Placement, Plan
from agent.mc.frame import to_world
from agent.mc.geometry import Facing

Shape = Literal["wall", "pillar"]


def shape_plan(shape: Shape, block: str, feet: tuple[int, int, int], facing: Facing, *, forward: int, length: int,
               height: int) -> Plan:
    """The shape's cells, anchored at the feet block: a wall `length` wide across the facing,
    centred ahead, `forward` blocks on; a pillar (length 1) there. Both stand on the feet's level."""
    width = 1 if shape == "pillar" else length
    rights = [r - (width - 1) // 2 for r in range(width)]
    blocks = []
    for up in range(height):
        for right in rights:
            dx, dz = to_world(forward, right, facing)
            blocks.append(Placement(at=(dx, up, dz), block=block))
    return Plan(anchor=feet, blocks=blocks)
