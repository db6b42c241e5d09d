"""The sub-goal the outer loop works on: the first of the run's sub-goals (agent/goals) that does
not hold in the world, read before each outer step of the main plan. Reading them all each time,
rather than stepping through a list, lets a sub-goal undone by a later step (logs dropped on the
way back) become the focus again.

The focus decides what the run offers first: the tools that achieve its kind (a Skill.md's
`achieves:`) and the arguments its check states (given.py), and what mc-explore and a method's
`[when: goal]` pursue (the executor's goal_check).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agent.checks import Check, Verdict
from agent.goals.understanding import SubGoal, Understanding
from agent.planner.given import given_args
from agent.tools import Toolbox

Reader = Callable[[Check], Verdict]


@dataclass
class Focus:
    goals: Understanding
    read: Reader
    index: int | None = None  # 0-based; None before the first reading

    def update(self) -> SubGoal | None:
        """Reads the sub-goals in order; the new focus when it moved, else None. When every one
        holds the focus stays where it was: the run's own check decides the end."""
        for index, subgoal in enumerate(self.goals.subgoals):
            if not self.read(subgoal.check).holds:
                if index == self.index:
                    return None
                self.index = index
                return subgoal
        return None

    @property
    def current(self) -> SubGoal | None:
        return None if self.index is None else self.goals.subgoals[self.index]


def leading(check: Check, toolbox: Toolbox) -> list[str]:
    """The tools a ranked offer puts first for `check`: those that take the arguments it states
    (given.py), then those whose Skill.md says they achieve its kind."""
    achieve = [name for name, spec in toolbox.tools.items() if check.kind in spec.achieves]
    return list(dict.fromkeys([*given_args(check, toolbox), *achieve]))
