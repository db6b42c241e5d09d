"""Noticing that a method goes round in circles: the same call giving the same result in the
same place, or the bot coming back to a cell it has stood in, step after step.

The runtime tells the model in the prompt once it happens, and past a bound ends the method
as FAILED with that reason: a loop the model did not break is not progress.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any

from agent.tools import ToolResult

WINDOW = 10  # the last steps looked at
REPEATS_SAID, REPEATS_BOUND = 2, 4  # the same (tool, arguments, result) this often
VISITS_SAID, VISITS_BOUND = 3, 5  # arrivals in the same feet block this often (staying is one visit)

Cell = tuple[int, int, int]


@dataclass(frozen=True)
class Loop:
    """What the watch saw after a step: a line for the prompt ("" when nothing repeats) and,
    past a bound, why the method must end."""

    said: str = ""
    ended: str | None = None


class LoopWatch:
    def __init__(self) -> None:
        self._calls: deque[str] = deque(maxlen=WINDOW)
        self._cells: deque[Cell | None] = deque(maxlen=WINDOW)

    def see(self, tool: str | None, args: dict[str, Any] | None, result: ToolResult, cell: Cell | None) -> Loop:
        """Counts this step: its call and result, and the feet block it ended in (None: unknown)."""
        call = _signature(tool, args, result, cell)
        self._calls.append(call)
        self._cells.append(cell)
        repeats = self._calls.count(call)
        visits = self._visits(cell)
        lines = []
        if repeats >= REPEATS_SAID:
            lines.append(f"{tool} with these arguments gave the same result here {repeats} times in the last "
                         f"{len(self._calls)} steps")
        if visits >= VISITS_SAID:
            lines.append(f"you have stood here {visits} times in the last {len(self._cells)} steps")
        said = "; ".join(lines)
        ended = said if repeats >= REPEATS_BOUND or visits >= VISITS_BOUND else None
        return Loop(said=f"LOOP: {said}. Do something different." if said else "", ended=ended)

    def _visits(self, cell: Cell | None) -> int:
        """Times the bot came to `cell` in the window: steps that end there after one that did not."""
        if cell is None:
            return 0
        cells = list(self._cells)
        return sum(here == cell and (i == 0 or cells[i - 1] != cell) for i, here in enumerate(cells))


def _signature(tool: str | None, args: dict[str, Any] | None, result: ToolResult, cell: Cell | None) -> str:
    """The call, how it ended and where. Where the cell is known, the result's words are left
    out: a walk that ends stuck in the same cell again gave the same result, whatever it timed."""
    words = result.value if cell is None else ""
    return json.dumps([tool, args, result.status, result.code, cell, words], sort_keys=True, default=str)
