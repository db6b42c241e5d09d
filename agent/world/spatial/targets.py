"""Where to go next: the choice mc-explore makes from the map and the goal check.

Cells are feet blocks in world blocks (x east, y up, z south). Moves are walking moves
(walking.py); distances are straight-line blocks."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from agent.checks import Check, Standing
from agent.world.spatial.memory import SpatialMemory
from agent.world.spatial.survey import Kind
from agent.world.spatial.cells import Cell
from agent.world.spatial.walking import HORIZONTAL, Frontier

# A cell stood on before costs this many moves more, so the search moves on instead of pacing.
REVISIT_COST = 6
# Each unknown neighbour of a frontier makes it this many moves more attractive.
UNKNOWN_GAIN = 0.5


@dataclass(frozen=True)
class Target:
    cell: Cell
    # goal: the check would hold there; frontier: next to unknown space; beyond_wall: unknown
    # space behind a one-block wall, for the pathfinder to dig through to
    why: Literal["goal", "frontier", "beyond_wall"]


def next_target(memory: SpatialMemory, feet: Cell, check: Check, avoid: set[Cell], *, radius: int,
                max_drop: int, change_terrain: bool = False, dig: bool = False) -> Target | None:
    """The nearest cell reachable by walking where the check would hold; else the best reachable
    frontier (near, not stood on before, opening onto much unknown space). With `change_terrain`
    and nothing reachable by walking: the nearest known standable cell where the check would
    hold, else the best frontier, for the pathfinder to dig or build its way to; and with `dig`,
    when nothing at all is left to explore, the nearest unknown cell behind a one-block wall.
    None when there is nowhere to go. Cells in `avoid` (walks that failed) are never chosen."""
    region = memory.region(feet, radius, max_drop)
    moves = region.reachable(feet)
    holds = [c for c in moves if c != feet and c not in avoid and check.at_cell(standing(memory, c))]
    if holds:
        return Target(min(holds, key=moves.get), "goal")
    frontiers = [f for f in region.frontiers(feet, moves) if (f.x, f.y, f.z) not in avoid | {feet}]
    walkable = [f for f in frontiers if f.moves is not None]
    if walkable:
        return Target(_cell(min(walkable, key=lambda f: f.moves + _penalty(memory, f))), "frontier")
    if not change_terrain:
        return None
    far = [c for c in region.standable_cells() if c not in avoid and check.at_cell(standing(memory, c))]
    if far:
        return Target(min(far, key=lambda c: math.dist(c, feet)), "goal")
    if frontiers:
        return Target(_cell(min(frontiers, key=lambda f: math.dist(_cell(f), feet) + _penalty(memory, f))), "frontier")
    behind = [c for c in _behind_walls(memory, moves) if c not in avoid] if dig else []
    return Target(min(behind, key=lambda c: math.dist(c, feet)), "beyond_wall") if behind else None


def _behind_walls(memory: SpatialMemory, cells) -> list[Cell]:
    """Unknown feet cells two blocks from a standable cell, across a solid block at feet level:
    where a closed room or tunnel may open up once that block is dug."""
    return [(x + 2 * dx, y, z + 2 * dz) for x, y, z in cells for dx, dz in HORIZONTAL
            if memory.kind(x + dx, y, z + dz) == Kind.SOLID and memory.kind(x + 2 * dx, y, z + 2 * dz) == Kind.UNKNOWN]


def standing(memory: SpatialMemory, cell: Cell) -> Standing:
    """The bot imagined in `cell`, with what the map knows there, for Check.at_cell."""
    return Standing(x=cell[0], y=cell[1], z=cell[2], sky=memory.sky(*cell))


def _penalty(memory: SpatialMemory, f: Frontier) -> float:
    return REVISIT_COST * memory.visits(f.x, f.y, f.z) - UNKNOWN_GAIN * f.unknown


def _cell(f: Frontier) -> Cell:
    return f.x, f.y, f.z
