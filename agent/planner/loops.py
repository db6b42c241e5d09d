"""Noticing that a method goes round in circles: the same call giving the same result, or the
bot standing in the same cell step after step.

The runtime tells the model in the prompt once it happens, and past a bound ends the method
as FAILED with that reason: a loop the model did not break is not progress.
"""

from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from agent.tools import ToolResult

WINDOW = 10  # the last steps looked at
REPEATS_SAID, REPEATS_BOUND = 2, 4  # the same (tool, arguments, result) this often
STANDS_SAID, STANDS_BOUND = 3, 6  # steps ended in the same feet block this often
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")

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
        """Counts this step (its call, its result, the feet block it ended in; None: unknown)."""
        call = _signature(tool, args, result)
        self._calls.append(call)
        self._cells.append(cell)
        repeats = self._calls.count(call)
        stands = self._cells.count(cell) if cell is not None else 0
        lines = []
        if repeats >= REPEATS_SAID:
            lines.append(f"{tool} with these arguments gave the same result {repeats} times in the last "
                         f"{len(self._calls)} steps")
        if stands >= STANDS_SAID:
            lines.append(f"you have stood here {stands} times in the last {len(self._cells)} steps")
        said = "; ".join(lines)
        ended = said if repeats >= REPEATS_BOUND or stands >= STANDS_BOUND else None
        return Loop(said=f"LOOP: {said}. Do something different." if said else "", ended=ended)


def _signature(tool: str | None, args: dict[str, Any] | None, result: ToolResult) -> str:
    """The call and its result, with numbers left out of the result's words: a walk that
    again ends stuck after 7.4 s instead of 7.1 s gave the same result."""
    shown = _NUMBER.sub("#", result.value)
    return json.dumps([tool, args, result.status, result.code, shown], sort_keys=True, default=str)
