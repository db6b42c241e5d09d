"""What one byte of the map holds, and how world blocks fall into 16x16x16 chunks.

A cell byte: bits 0-2 its Kind, bit 3 open to the sky, bits 4-7 how many surveys were
taken standing in it (saturating at 15). A byte of 0 is an unknown cell never stood in.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

CHUNK = 16
KIND_BITS, SKY_BIT, VISIT_SHIFT = 0x07, 0x08, 4
VISIT_BITS = 0xFF ^ (KIND_BITS | SKY_BIT)
MAX_VISITS = 15
Cell = tuple[int, int, int]  # a world block (x, y, z)
ChunkKey = tuple[int, int, int]  # a chunk: world block // 16 on each axis
Slices = tuple[slice, slice, slice]


def chunk_of(x: int, y: int, z: int) -> tuple[ChunkKey, Cell]:
    """The chunk holding a world block, and the block's index inside it (floor division: -1 is in chunk -1)."""
    return (x >> 4, y >> 4, z >> 4), (x & 15, y & 15, z & 15)


def overlaps(lo: Cell, hi: Cell) -> Iterator[tuple[ChunkKey, Slices, Slices]]:
    """For the world box [lo, hi) (hi exclusive): each chunk it touches, with the box's part as
    slices into the chunk and into an array of the box's shape starting at lo."""
    ranges = [range(a >> 4, ((b - 1) >> 4) + 1) for a, b in zip(lo, hi)]
    for cx in ranges[0]:
        for cy in ranges[1]:
            for cz in ranges[2]:
                key = (cx, cy, cz)
                inner, outer = [], []
                for c, a, b in zip(key, lo, hi):
                    start, stop = max(a, c * CHUNK), min(b, (c + 1) * CHUNK)
                    inner.append(slice(start - c * CHUNK, stop - c * CHUNK))
                    outer.append(slice(start - a, stop - a))
                yield key, tuple(inner), tuple(outer)


def empty_chunk() -> np.ndarray:
    return np.zeros((CHUNK, CHUNK, CHUNK), dtype=np.uint8)
