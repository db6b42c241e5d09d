"""The map as it is shown: around the bot for mc-map (the picture at its feet level, and the
frontiers in its egocentric frame: forward, right, up from the feet block, facing snapped to a
cardinal), and whole from above for a run's report. World blocks: x east, y up, z south; a cell
is a feet block. The view around the bot, MapView, is mc-map's result."""

from __future__ import annotations

import math

import numpy as np
from pydantic import Field

from agent.mc.frame import to_ego
from agent.mc.geometry import BlockPos, Facing, Frozen
from agent.world.spatial.memory import SpatialMemory
from agent.world.spatial.picture import LEGEND, Mark, marks, render
from agent.world.spatial.walking import SAFE_DROP, SIDE_MARGIN, Frontier

# Frontiers listed in mc-map's data; the count says how many there were.
MAX_LISTED = 12
MAX_SEEN = 5
BEARINGS = ("ahead", "ahead right", "right", "behind right", "behind", "behind left", "left", "ahead left")


class MapCell(Frozen):
    """A cell of the map: where it is in the world, and from the bot's feet block."""

    x: int
    y: int
    z: int
    forward: int
    right: int
    up: int
    distance: float = Field(description="straight-line blocks from the feet block")


class MapFrontier(MapCell):
    """A standable feet block next to unknown space."""

    bearing: str = Field(description="egocentric: ahead, ahead right, right, behind right, behind, ... or here")
    moves: int | None = Field(description="walking moves from the bot; None: not reachable by walking known cells")
    reachable: bool
    unknown: int = Field(description="unknown cells beside it (feet, head and footing of its 4 neighbours)")
    sky: bool = Field(description="nothing opaque above it")


class SeenBlock(MapCell):
    """A block mc-find saw by name (the map keeps it)."""

    name: str


class MapView(Frozen):
    feet: BlockPos
    facing: Facing
    radius: int
    sky_above: bool = Field(description="nothing opaque above the bot's head")
    known_cells: int = Field(description="cells known in the whole map")
    frontier_count: int = Field(description="frontiers within the radius")
    reachable_frontiers: int
    frontiers: list[MapFrontier] = Field(description="reachable ones first, fewest moves first, then nearest; capped")
    seen: list[SeenBlock] = Field([], description="blocks mc-find saw by name within twice the radius, nearest first; capped")
    picture: list[str] = Field(description="top-down at the feet level, north up, rows north to south")
    legend: str


def map_view(memory: SpatialMemory, feet: BlockPos, facing: Facing, radius: int, max_drop: int = SAFE_DROP) -> MapView:
    """The map within `radius` blocks of the feet block (world blocks), seen from the bot."""
    cell = (feet.x, feet.y, feet.z)
    region = memory.region(cell, radius, max_drop)
    found = region.frontiers(cell)
    found.sort(key=lambda f: (f.moves is None, f.moves or 0, math.dist(cell, (f.x, f.y, f.z))))
    # The band is the feet level: its footing is the level below, and the region starts radius + max_drop + 1 below the feet.
    j = feet.y - region.origin[1]
    flat = np.zeros(region.cells[:, j:j + 1, :].shape, dtype=bool)
    for f in found:
        if f.y == feet.y:
            flat[f.x - region.origin[0], 0, f.z - region.origin[2]] = True
    inner = slice(SIDE_MARGIN, -SIDE_MARGIN)
    plan = marks(region.cells[inner, j - 1:j + 1, inner], flat[inner, :, inner])
    return MapView(
        feet=feet,
        facing=facing,
        radius=radius,
        sky_above=memory.sky(*cell),
        known_cells=memory.known_cells(),
        frontier_count=len(found),
        reachable_frontiers=sum(f.moves is not None for f in found),
        frontiers=[_egocentric(f, feet, facing) for f in found[:MAX_LISTED]],
        seen=_seen(memory, feet, facing, 2 * radius),
        picture=render(plan, (radius, radius, facing)),
        legend=LEGEND,
    )


def _seen(memory: SpatialMemory, feet: BlockPos, facing: Facing, within: float) -> list[SeenBlock]:
    """The blocks mc-find saw within `within` blocks of the feet block, nearest first."""
    cell = (feet.x, feet.y, feet.z)
    near = sorted((math.dist(cell, c), c, name) for c, name in memory.seen.items() if math.dist(cell, c) <= within)
    out = []
    for distance, (x, y, z), name in near[:MAX_SEEN]:
        forward, right = to_ego(x - feet.x, z - feet.z, facing)
        out.append(SeenBlock(name=name, x=x, y=y, z=z, forward=forward, right=right, up=y - feet.y, distance=round(distance, 2)))
    return out


def _egocentric(f: Frontier, feet: BlockPos, facing: Facing) -> MapFrontier:
    dx, dy, dz = f.x - feet.x, f.y - feet.y, f.z - feet.z
    forward, right = to_ego(dx, dz, facing)
    return MapFrontier(x=f.x, y=f.y, z=f.z, forward=forward, right=right, up=dy,
                       distance=round(math.hypot(dx, dy, dz), 2), bearing=bearing(forward, right),
                       moves=f.moves, reachable=f.moves is not None, unknown=f.unknown, sky=f.sky)


def bearing(forward: int, right: int) -> str:
    """Egocentric direction words for a horizontal offset, in eighths of a turn."""
    if forward == right == 0:
        return "here"
    return BEARINGS[round(math.degrees(math.atan2(right, forward)) / 45) % 8]


def overview(memory: SpatialMemory, y_lo: int, y_hi: int, max_drop: int = SAFE_DROP) -> dict[tuple[int, int], Mark]:
    """The mark of every known column (world x, z) judged over the feet levels y_lo..y_hi (picture.py)."""
    bounds = memory.bounds()
    if bounds is None:
        return {}
    (x0, _, z0), (x1, _, z1) = bounds
    region = memory.region_of((x0, y_lo, z0), (x1, y_hi + 1, z1), max_drop)
    frontier, _ = region.frontier_mask()
    j, n = y_lo - region.origin[1], y_hi + 1 - y_lo
    inner = slice(SIDE_MARGIN, -SIDE_MARGIN)
    plan = marks(region.cells[inner, j - 1:j + n, inner], frontier[inner, j:j + n, inner])
    return {(x0 + int(i), z0 + int(k)): Mark(int(plan[i, k])) for i, k in zip(*np.nonzero(plan))}
