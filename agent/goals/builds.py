"""The cells a goal builds, which no digging may take while the goal stands: a house half built
is the nearest stack of planks, and a collecting asked for planks would dig it down again. The
tools that dig (mc-collect, mc-dig) keep these cells whoever wrote the call, the model or a
method; only mc-build, which clears a cell to set the block asked, touches them."""

from __future__ import annotations

from typing import Any

from agent.blueprint.model import AIR
from agent.checks.model import All, Blueprint, Check
from agent.mc.blockstate import BlockState

Cell = tuple[int, int, int]


def parts_of(check: Check | None) -> list[Check]:
    """The check, or the parts of an `all` (every one must hold, so each states what is wanted)."""
    if check is None:
        return []
    return [p for c in check.all for p in parts_of(c)] if isinstance(check, All) else [check]


def built(check: Check | None) -> dict[Cell, str]:
    """The world cells the check's blueprints put a block in, and the block's name (its state
    left out); a cell that must be air is not one: digging there helps the build."""
    return {cell: name for part in parts_of(check) if isinstance(part, Blueprint)
            for cell, spec in part.blueprint.cells() if (name := BlockState.parse(spec).name) not in AIR}


def kept(executor: Any) -> dict[Cell, str]:
    """The cells the run's goal builds (`built`), read from the executor's run_check: the run's
    whole check, not the sub-goal the planner works on (goal_check)."""
    return built(getattr(executor, "run_check", None))
