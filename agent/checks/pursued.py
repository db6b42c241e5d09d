"""The goal a run's body pursues: the run's check, or open sky when the run has none.

mc-explore explores for it, and a method's `[when: goal]` reads it, so both mean the same."""

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
    if getattr(executor, "world", None) is None:
        return None
    return evaluate(executor.world, pursued_check(executor))
