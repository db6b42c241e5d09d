"""Hand-made surveys for the spatial tests: small worlds in world blocks, described by their cells."""

from __future__ import annotations

from collections.abc import Iterable

from agent.world.spatial import Survey

Cell = tuple[int, int, int]


def survey(lo: Cell, hi: Cell, *, solid: Iterable[Cell] = (), unknown: Iterable[Cell] = (), water: Iterable[Cell] = (),
           feet: Cell = (0, 1, 0), facing: str = "north", sky_from: int | None = None) -> Survey:
    """The world box [lo, hi) as the bridge would report it: the cells named are solid, unknown or water,
    every other cell free; every column is open to the sky from `sky_from` up (default: the box's bottom)."""
    solid, unknown, water = set(solid), set(unknown), set(water)
    letters = []
    for x in range(lo[0], hi[0]):
        for y in range(lo[1], hi[1]):
            for z in range(lo[2], hi[2]):
                c = (x, y, z)
                letters.append("?" if c in unknown else "#" if c in solid else "~" if c in water else ".")
    size = tuple(b - a for a, b in zip(lo, hi))
    return Survey(origin=dict(zip("xyz", lo)), size=size, cells="".join(letters),
                  sky_from=[lo[1] if sky_from is None else sky_from] * (size[0] * size[2]),
                  feet=dict(zip("xyz", feet)), facing=facing)


def layer(y: int, x0: int, x1: int, z0: int, z1: int) -> set[Cell]:
    """The cells of a horizontal rectangle at height y, corners included."""
    return {(x, y, z) for x in range(x0, x1 + 1) for z in range(z0, z1 + 1)}


def column(x: int, z: int, y0: int, y1: int) -> set[Cell]:
    """The cells of a vertical column from y0 to y1, both included."""
    return {(x, y, z) for y in range(y0, y1 + 1)}
