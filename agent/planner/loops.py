"""Noticing that a plan goes round in circles.

- In a method (LoopWatch): the same call giving the same result in the same place, or the bot
  coming back to a cell it has stood in, step after step.
- In the outer loop (StaleWatch): a step that changed nothing in the world, or gave the same
  result as the same call did before, or succeeded without moving anything the goal counts
  closer (an item count, a distance, a height, a share of cells: the check in focus read the
  same before and after). Its tool is not offered again until something changes (the world,
  or the sub-goal), so the model must try something else.

The runtime tells the model in the prompt once it happens, and past a bound ends the method
as FAILED, or the run as failed, with that reason: a loop the model did not break is not progress.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agent.planner.given import made_with
from agent.tools import ToolResult

WINDOW = 10  # the last steps looked at
REPEATS_SAID, REPEATS_BOUND = 2, 4  # the same (tool, arguments, result) this often
VISITS_SAID, VISITS_BOUND = 3, 5  # arrivals in the same feet block this often (staying is one visit)
STALE_BOUND = 3  # outer steps of the same call (tool and arguments) that were stale, in the window

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


@dataclass(frozen=True)
class Stale:
    """What the outer watch saw after a step: a line for the prompt ("" when the step was not
    stale) and, past the bound, why the run must end."""

    said: str = ""
    ended: str | None = None


class StaleWatch:
    """A stale step changed nothing in the world, or (where that is unknown) gave the same result as
    the same call before. Its tool is withheld until something changes: in an unchanged world the
    same tool would do the same again, so the model must choose another. A step that changes the
    world, or gives a new result, offers every tool again; a new sub-goal offers those it gives
    a call not yet made."""

    def __init__(self) -> None:
        # (tool, arguments, call, result, stale)
        self._steps: deque[tuple[str | None, dict[str, Any], str, str, bool]] = deque(maxlen=WINDOW)
        self._withheld: set[str] = set()

    @property
    def withheld(self) -> frozenset[str]:
        """The tools not offered at the next step: each stale since the world last changed."""
        return frozenset(self._withheld)

    def offer_again(self, given: Mapping[str, Mapping[str, Any]]) -> None:
        """The plan turned to another sub-goal, which gives these tools their arguments (`given`,
        by tool): a withheld tool is offered again where no stale step in the window already
        made that call (mc-craft refused a bookshelf; the planks it lacked, the next sub-goal, are
        another call). The steps are kept for the bound."""
        for tool in [t for t in self._withheld if t in given]:
            if not any(t == tool and made_with(given[tool], args) for t, args, _, _, stale in self._steps if stale):
                self._withheld.discard(tool)

    def see(self, tool: str | None, args: dict[str, Any] | None, result: ToolResult, changed: bool | None,
            closer: bool | None = None) -> Stale:
        """Counts this step. `changed`: whether the world around the bot changed during it; None
        when unknown (no world, or a tool that does not act in it). `closer`: for a step that
        succeeded, whether what the check in focus counts moved; None without a check."""
        call = json.dumps([tool, args], sort_keys=True, default=str)
        outcome = json.dumps([result.status, result.code, result.value], default=str)
        repeated = any(c == call and o == outcome for _, _, c, o, _ in self._steps)
        aside = closer is False and changed is not False
        stale = tool is not None and (changed is False or (changed is None and repeated) or aside)
        self._steps.append((tool, args or {}, call, outcome, stale))
        if not stale:
            self._withheld.clear()
            return Stale()
        self._withheld.add(str(tool))
        times = sum(c == call and was for _, _, c, _, was in self._steps)
        said = f"{tool} {_why_stale(changed, aside)}"
        if times > 1:
            said += f" ({times} times in the last {len(self._steps)} steps)"
        return Stale(said=f"LOOP: {said}; it is not offered again until something changes.",
                     ended=said if times >= STALE_BOUND else None)


def _why_stale(changed: bool | None, aside: bool) -> str:
    if changed is False:
        return "changed nothing in the world"
    return "moved nothing the goal counts closer" if aside else "gave the same result as before"
