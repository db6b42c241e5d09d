"""Checks the planner reads in the world: the goal the run's body pursues, and single facts.

mc-explore explores for the pursued goal and a method's `[when: goal]` reads it, so both mean
the same; `[when: world.sky_visible]` reads one predicate that is written `NAME: true`."""

from __future__ import annotations

from typing import Any

from agent.checks.evaluate import Verdict, evaluate
from agent.checks.model import Check, parse_check

DEFAULT_GOAL = {"sky_visible": True}


def pursued_check(executor: Any) -> Check:
    """`executor.goal_check` (the run's), else sky_visible: true."""
    return executor.goal_check or parse_check(DEFAULT_GOAL, "goal")


def read_goal(executor: Any) -> Verdict | None:
    """The pursued check read in the world now; None without a world to read it in."""
    return _read(executor, pursued_check(executor))


def read_fact(executor: Any, name: str) -> bool | None:
    """Whether the predicate `name` (one written `NAME: true`) holds in the world now; None
    without a world."""
    verdict = _read(executor, parse_check({name: True}, name))
    return None if verdict is None else verdict.holds


def _read(executor: Any, check: Check) -> Verdict | None:
    if getattr(executor, "world", None) is None:
        return None
    return evaluate(executor.world, check)
