"""Where a body can stand and walk in the known part of the map, and where the known part ends.

World blocks: x east, y up, z south; a "cell" here is a feet block. A cell is standable when
its feet and head cells are known free and the cell below is known solid. One walking move
goes to one of the 4 horizontal neighbours: on the same level, one up (a jump: it needs
headroom above the head), or down by falling at most `max_drop` blocks through known free
cells. A frontier is a standable cell next to unknown space: an unknown horizontal neighbour
at feet or head level, or an unknown footing beside free feet and head cells.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from agent.world.spatial.cells import KIND_BITS, SKY_BIT, Cell
from agent.world.spatial.survey import Kind

# Margins the walking rules read past the cells they judge: a neighbour's column, the head's
# headroom above, and a fall of max_drop plus its footing below.
SIDE_MARGIN, TOP_MARGIN = 1, 2
HORIZONTAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
# The deepest drop walked down by default, in blocks: fall damage starts past 3 (bridge/helpers/blocks.js).
SAFE_DROP = 3


@dataclass(frozen=True, slots=True)
class Frontier:
    """A standable feet block (world x, y, z) next to unknown space."""

    x: int
    y: int
    z: int
    moves: int | None  # walking moves from the feet block; None: not reachable by walking
    unknown: int  # unknown neighbour cells (feet, head, footing of the 4 horizontal neighbours)
    sky: bool  # nothing opaque above it up to the top of the world


def padded(lo: Cell, hi: Cell, max_drop: int) -> tuple[Cell, Cell]:
    """The world box [lo, hi) of feet blocks grown by the margins the walking rules read around it."""
    below = max_drop + 1
    return ((lo[0] - SIDE_MARGIN, lo[1] - below, lo[2] - SIDE_MARGIN),
            (hi[0] + SIDE_MARGIN, hi[1] + TOP_MARGIN, hi[2] + SIDE_MARGIN))


class Region:
    """A box of map cells (from `padded`) whose outer layers are margins: only cells inside
    them are judged standable. `origin` is the world block of index [0, 0, 0]."""

    def __init__(self, cells: np.ndarray, origin: Cell, max_drop: int):
        self.cells, self.origin, self.max_drop = cells, origin, max_drop
        self.kinds = cells & KIND_BITS
        self.standable = _standable(self.kinds, max_drop)

    def reachable(self, feet: Cell) -> dict[Cell, int]:
        """Standable cells reached by walking from the feet block (inside the margins, but not
        necessarily standable: a bot may stand on a slab or hang in the air), with their moves.
        A breadth-first search over flat indices: pure Python, but only over standable cells."""
        if not self._inside(feet):
            raise ValueError(f"the feet block {feet} is not inside the region's margins")
        kinds, standable = self.kinds.tobytes(), self.standable.tobytes()
        sy = self.kinds.shape[2]
        sx = self.kinds.shape[1] * sy
        free = int(Kind.FREE)

        def fall(n: int) -> int | None:
            for _ in range(self.max_drop):
                n -= sy
                if kinds[n] != free:
                    return None
                if standable[n]:
                    return n
            return None

        start = self._index(feet)
        moves = {start: 0}
        queue = deque([start])
        while queue:
            c = queue.popleft()
            headroom = kinds[c + 2 * sy] == free
            for step in (sx, -sx, 1, -1):
                n = c + step
                if standable[n]:
                    to = n
                elif headroom and standable[n + sy]:
                    to = n + sy
                elif kinds[n] == free and kinds[n + sy] == free:
                    to = fall(n)
                else:
                    continue
                if to is not None and to not in moves:
                    moves[to] = moves[c] + 1
                    queue.append(to)
        return {self._cell(i): m for i, m in moves.items() if standable[i]}

    def frontier_mask(self) -> tuple[np.ndarray, np.ndarray]:
        """(frontier, unknown): bool [x, y, z] of the frontier cells, and each cell's unknown neighbour count."""
        unknown = self.kinds == Kind.UNKNOWN
        free = self.kinds == Kind.FREE
        above = np.roll(unknown, -1, axis=1)
        below = np.roll(unknown, 1, axis=1)
        body_free = free & np.roll(free, -1, axis=1)
        # What each cell adds to a neighbour's count: feet, head, and a footing unknown under a free body.
        adds = unknown.astype(np.uint8) + above + (below & body_free)
        count = sum(np.roll(adds, (-dx, -dz), axis=(0, 2)) for dx, dz in HORIZONTAL)
        return self.standable & (count > 0), count

    def frontiers(self, feet: Cell, moves: dict[Cell, int] | None = None) -> list[Frontier]:
        """Every frontier cell of the region, with its walking moves from the feet block
        (`moves`: reachable(feet) when the caller has it already)."""
        mask, count = self.frontier_mask()
        moves = self.reachable(feet) if moves is None else moves
        out = []
        for i, j, k in zip(*np.nonzero(mask)):
            cell = self._cell_at(int(i), int(j), int(k))
            out.append(Frontier(*cell, moves=moves.get(cell), unknown=int(count[i, j, k]),
                                sky=bool(self.cells[i, j, k] & SKY_BIT)))
        return out

    def standable_cells(self) -> list[Cell]:
        """Every standable feet block of the region (world blocks), reachable or not."""
        return [self._cell_at(int(i), int(j), int(k)) for i, j, k in zip(*np.nonzero(self.standable))]

    def _inside(self, cell: Cell) -> bool:
        i, j, k = (c - o for c, o in zip(cell, self.origin))
        nx, ny, nz = self.kinds.shape
        return SIDE_MARGIN <= i < nx - SIDE_MARGIN and self.max_drop + 1 <= j < ny - TOP_MARGIN and SIDE_MARGIN <= k < nz - SIDE_MARGIN

    def _index(self, cell: Cell) -> int:
        ny, nz = self.kinds.shape[1:]
        i, j, k = (c - o for c, o in zip(cell, self.origin))
        return (i * ny + j) * nz + k

    def _cell(self, index: int) -> Cell:
        ny, nz = self.kinds.shape[1:]
        i, rest = divmod(index, ny * nz)
        return self._cell_at(i, *divmod(rest, nz))

    def _cell_at(self, i: int, j: int, k: int) -> Cell:
        return self.origin[0] + i, self.origin[1] + j, self.origin[2] + k


def _standable(kinds: np.ndarray, max_drop: int) -> np.ndarray:
    """Bool [x, y, z]: feet and head free, footing solid; False in the margins."""
    free = kinds == Kind.FREE
    out = np.zeros(kinds.shape, dtype=bool)
    below = max_drop + 1
    top = kinds.shape[1] - TOP_MARGIN
    s = SIDE_MARGIN
    out[s:-s, below:top, s:-s] = (free[s:-s, below:top, s:-s] & free[s:-s, below + 1:top + 1, s:-s]
                                  & (kinds[s:-s, below - 1:top - 1, s:-s] == Kind.SOLID))
    return out
