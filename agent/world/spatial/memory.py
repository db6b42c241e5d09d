"""SpatialMemory: every cell the body has seen in one run, in world blocks (x east, y up, z south).

Numpy chunks of 16x16x16 bytes (cells.py) keyed by chunk coordinates; a survey writes the
cells it knows and leaves the rest as they were, since not seeing a cell now says nothing
about it. With a file, every chunk a call changed is written before the call returns.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from agent.world.spatial.cells import (
    CHUNK, KIND_BITS, MAX_VISITS, SKY_BIT, VISIT_BITS, VISIT_SHIFT, Cell, ChunkKey, chunk_of, empty_chunk, overlaps,
)
from agent.world.spatial.store import ChunkStore
from agent.world.spatial.survey import Kind, Survey
from agent.world.spatial.walking import SAFE_DROP, Frontier, Region, padded


class SpatialMemory:
    """What the body has seen. `open(path)` keeps it in a SQLite file; `open(None)` in memory only."""

    def __init__(self, chunks: dict[ChunkKey, np.ndarray], store: ChunkStore | None,
                 seen: dict[Cell, str] | None = None):
        self._chunks = chunks
        self._store = store
        self.seen: dict[Cell, str] = seen or {}  # block name by world cell, as mc-find last saw it
        self._known = sum(_known_in(c) for c in chunks.values())
        self.feet: Cell | None = None  # the feet block of the latest survey taken standing: where the bot is

    @classmethod
    def open(cls, path: Path | None, *, read_only: bool = False) -> SpatialMemory:
        """The map in the file at `path` (created when missing, unless `read_only`), or a new
        one in memory when None."""
        if path is None:
            return cls({}, None)
        store = ChunkStore(path, read_only=read_only)
        return cls(store.load(), store, store.load_seen())

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def record(self, survey: Survey, *, standing: bool = False) -> None:
        """Writes what the survey knows (kind and sky); keeps the visits and every cell it did not
        know. `standing`: the bot took it standing in the survey's feet block, one more visit there
        (written with the cells, in one write)."""
        kinds = survey.kinds()
        known = kinds != Kind.UNKNOWN
        fresh = kinds | (known & survey.sky()).astype(np.uint8) * SKY_BIT
        lo = (survey.origin.x, survey.origin.y, survey.origin.z)
        hi = tuple(a + n for a, n in zip(lo, survey.size))
        changed = {}
        for key, inner, outer in overlaps(lo, hi):
            seen = known[outer]
            if not seen.any():
                continue
            chunk = self._chunks.get(key)
            chunk = empty_chunk() if chunk is None else chunk
            before = chunk[inner]
            after = np.where(seen, (before & VISIT_BITS) | fresh[outer], before)
            if key in self._chunks and np.array_equal(before, after):
                continue
            self._known += _known_in(after) - _known_in(before)
            chunk[inner] = after
            self._chunks[key] = changed[key] = chunk
        if standing:
            self.feet = (survey.feet.x, survey.feet.y, survey.feet.z)
            changed.update(self._visit(*self.feet))
        self._save(changed)

    def remember_blocks(self, found: dict[Cell, str], kinds: set[str], feet: Cell, radius: float) -> None:
        """What a search for blocks of `kinds` within `radius` blocks of `feet` found: those cells by
        name; cells of those kinds it looked at and did not find again are forgotten (dug, or gone)."""
        gone = [c for c, name in self.seen.items() if name in kinds and c not in found and math.dist(c, feet) <= radius]
        for cell in gone:
            del self.seen[cell]
        self.seen.update(found)
        if self._store is not None:
            self._store.save_seen(found, gone)

    def mark_visited(self, x: int, y: int, z: int) -> None:
        """One more survey taken standing in the feet block (x, y, z)."""
        self._save(self._visit(x, y, z))

    def _visit(self, x: int, y: int, z: int) -> dict[ChunkKey, np.ndarray]:
        """Counts a visit to the feet block; returns its chunk, to be saved."""
        key, index = chunk_of(x, y, z)
        chunk = self._chunks.setdefault(key, empty_chunk())
        visits = min(MAX_VISITS, (int(chunk[index]) >> VISIT_SHIFT) + 1)
        chunk[index] = (int(chunk[index]) & (KIND_BITS | SKY_BIT)) | (visits << VISIT_SHIFT)
        return {key: chunk}

    def kind(self, x: int, y: int, z: int) -> Kind:
        return Kind(self._byte(x, y, z) & KIND_BITS)

    def sky(self, x: int, y: int, z: int) -> bool:
        """Known to have nothing opaque above it up to the top of the world."""
        return bool(self._byte(x, y, z) & SKY_BIT)

    def visits(self, x: int, y: int, z: int) -> int:
        """Surveys taken standing in this feet block (at most 15 are counted)."""
        return self._byte(x, y, z) >> VISIT_SHIFT

    def known_cells(self) -> int:
        return self._known

    def standable(self, x: int, y: int, z: int) -> bool:
        """Feet and head cells known free and the cell below known solid."""
        return self.kind(x, y, z) == self.kind(x, y + 1, z) == Kind.FREE and self.kind(x, y - 1, z) == Kind.SOLID

    def window(self, lo: Cell, hi: Cell) -> np.ndarray:
        """A copy of the cell bytes of the world box [lo, hi) (hi exclusive), indexed [x, y, z] from lo."""
        out = np.zeros(tuple(b - a for a, b in zip(lo, hi)), dtype=np.uint8)
        for key, inner, outer in overlaps(lo, hi):
            chunk = self._chunks.get(key)
            if chunk is not None:
                out[outer] = chunk[inner]
        return out

    def region(self, feet: Cell, radius: int, max_drop: int = SAFE_DROP) -> Region:
        """The part of the map walking.py needs to walk `radius` blocks from the feet block, any way."""
        x, y, z = feet
        return self.region_of((x - radius, y - radius, z - radius), (x + radius + 1, y + radius + 1, z + radius + 1), max_drop)

    def region_of(self, lo: Cell, hi: Cell, max_drop: int = SAFE_DROP) -> Region:
        """The feet blocks of the world box [lo, hi), with the margins walking.py reads around them."""
        start, stop = padded(lo, hi, max_drop)
        return Region(self.window(start, stop), start, max_drop)

    def reachable(self, feet: Cell, max_drop: int = SAFE_DROP, radius: int = 16) -> dict[Cell, int]:
        """Standable cells (world blocks) reached by walking from the feet block within `radius`
        blocks each way, with the moves it takes (see walking.py)."""
        return self.region(feet, radius, max_drop).reachable(feet)

    def frontiers(self, feet: Cell, max_drop: int = SAFE_DROP, radius: int = 16) -> list[Frontier]:
        """Standable cells within `radius` next to unknown space (see walking.py), in no order."""
        return self.region(feet, radius, max_drop).frontiers(feet)

    def bounds(self) -> tuple[Cell, Cell] | None:
        """The world box [lo, hi) of every chunk holding a known cell; None when nothing is known."""
        keys = [key for key, chunk in self._chunks.items() if chunk.any()]
        if not keys:
            return None
        lo = tuple(min(k[i] for k in keys) * CHUNK for i in range(3))
        hi = tuple((max(k[i] for k in keys) + 1) * CHUNK for i in range(3))
        return lo, hi

    def _byte(self, x: int, y: int, z: int) -> int:
        key, index = chunk_of(x, y, z)
        chunk = self._chunks.get(key)
        return 0 if chunk is None else int(chunk[index])

    def _save(self, chunks: dict[ChunkKey, np.ndarray]) -> None:
        if self._store is not None and chunks:
            self._store.save(chunks)


def _known_in(cells: np.ndarray) -> int:
    return int(np.count_nonzero(cells & KIND_BITS))
