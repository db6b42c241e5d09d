"""Where a method goes after a step: decided by the protocol's checked conditions where the
world or the last result can answer them, left to the model only among what remains.

- A branch whose [when: ...] holds decides (the first, in order); one whose check is false is
  not offered.
- `Otherwise` (or a bare `Proceed to STEP N`) decides when every other branch is checked and
  false; a step without one goes on to the next step then.
- An outcome with [when: ...] conditions cannot be reached while all of them are false,
  whether the model or a branch would lead there.
- A step whose conditions are all prose (the seed's format) offers, as before, the steps it
  names and every outcome: the model judges.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic_core import to_jsonable_python

from agent.tools import ToolResult
from agent.tools.expressions import UNKNOWN, Expression, parse_expression
from agent.tools.protocol_rules import FACTS, ROOTS, fits
from agent.tools.spec import Branch, MethodProtocol, Outcome, ProtocolStep
from agent.trace.schema import Decider

_STEP_LABEL = re.compile(r"\[METHOD: STEP (\d+)\]")
_TERMINATION = re.compile(r"TERMINATION \((\w+)\)")


@lru_cache(maxsize=512)
def compiled(source: str) -> Expression:
    """An expression the loader already checked; parsed once per process."""
    return parse_expression(source, ROOTS)


class Scope(Mapping[str, Any]):
    """What a condition reads after a step: the result, the call, the state, and the goal,
    read in the world only when a condition asks for it, at most once."""

    def __init__(self, tool: str | None, args: dict[str, Any] | None, result: ToolResult, state: dict[str, Any],
                 read_goal: Callable[[], bool | None], read_fact: Callable[[str], bool | None] = lambda name: None):
        self._values: dict[str, Any] = {
            "status": result.status, "code": result.code, "data": to_jsonable_python(result.data),
            "args": args or {}, "tool": tool, "state": state, "world": Facts(read_fact),
        }
        self._read_goal = read_goal

    def __getitem__(self, name: str) -> Any:
        if name == "goal" and name not in self._values:
            goal = self._read_goal()
            self._values["goal"] = UNKNOWN if goal is None else goal
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(ROOTS)

    def __len__(self) -> int:
        return len(ROOTS)


class Facts(Mapping[str, bool]):
    """`world.NAME`: a fact read in the world when a condition first asks for it; a fact that
    cannot be read is missing, so the condition is unknown."""

    def __init__(self, read: Callable[[str], bool | None]):
        self._read = read
        self._known: dict[str, bool | None] = {}

    def __getitem__(self, name: str) -> bool:
        if name not in FACTS:
            raise KeyError(name)
        if name not in self._known:
            self._known[name] = self._read(name)
        if self._known[name] is None:
            raise KeyError(name)
        return bool(self._known[name])

    def __iter__(self) -> Iterator[str]:
        return iter(FACTS)

    def __len__(self) -> int:
        return len(FACTS)


@dataclass(frozen=True)
class Next:
    """The next task when the runtime decided it (`decided`, by `decider`), else the labels the
    model chooses among. Neither: no way on is left (every branch is checked and false)."""

    decided: str | None
    choices: list[str]
    decider: Decider


def step_label(protocol: MethodProtocol, number: int) -> str:
    return f"[METHOD: STEP {number}] {protocol.steps[number - 1].title}".rstrip()


def outcome_label(name: str) -> str:
    return f"TERMINATION ({name})"


def task_labels(protocol: MethodProtocol) -> list[str]:
    """Every NEXT_TASK: `[METHOD: STEP X] TITLE` for each step, `TERMINATION (OUTCOME)` for each outcome."""
    steps = [step_label(protocol, n) for n in range(1, len(protocol.steps) + 1)]
    return steps + [outcome_label(o.name) for o in protocol.outcomes]


def step_of(protocol: MethodProtocol, task: str) -> ProtocolStep | None:
    number = _STEP_LABEL.match(task)
    return protocol.steps[int(number[1]) - 1] if number else None


def ended_in(task: str) -> str | None:
    """The outcome a NEXT_TASK ends the method in; None for a step."""
    ended = _TERMINATION.fullmatch(task)
    return ended[1] if ended else None


def outcome_holds(outcome: Outcome, scope: Scope) -> bool | None:
    """Whether the outcome's checked conditions hold: True when one of them does, False when
    every one is false, None when it has none or none can be read (then the model judges)."""
    verdicts = [compiled(source).holds(scope) for source in outcome.when]
    if True in verdicts:
        return True
    return False if verdicts and all(v is False for v in verdicts) else None


def decide(protocol: MethodProtocol, task: str, scope: Scope) -> Next:
    """Where the method goes after `task`'s step ran, as far as the runtime can tell."""
    step = step_of(protocol, task)
    assert step is not None, "a method's task is one of its steps until it ends"
    if not any(b.when for b in step.branches) and not _unconditional(step):
        return _offer(protocol, _as_before(protocol, step), scope)
    branches = step.branches + _fall_through(protocol, step)
    verdicts: list[bool | None] = []
    for branch in branches:  # in order, reading no more than it takes
        verdict = None if branch.otherwise or branch.when is None else compiled(branch.when).holds(scope)
        if verdict is not False and not _reachable(protocol, branch, scope):
            verdict = False
        if verdict is True:
            return Next(_target(protocol, branch), [], "checked")
        verdicts.append(verdict)
    others = [v for b, v in zip(branches, verdicts) if not b.otherwise]
    fallback = next((b for b, v in zip(branches, verdicts) if b.otherwise and v is None), None)
    if fallback is not None and all(v is False for v in others):
        return Next(_target(protocol, fallback), [], "checked" if others else "forced")
    return _offer(protocol, [_target(protocol, b) for b, v in zip(branches, verdicts) if v is None], scope)


def _unconditional(step: ProtocolStep) -> bool:
    """A step that goes on to one place whatever happened (`Proceed to STEP 2.`)."""
    return len(step.branches) == 1 and step.branches[0].otherwise


def _as_before(protocol: MethodProtocol, step: ProtocolStep) -> list[str]:
    """A step whose conditions are all prose, as the seed writes them: the steps it names and
    every outcome (a method may end when the model judges it done)."""
    goes_to = sorted(step.goes_to) or range(1, len(protocol.steps) + 1)
    return [step_label(protocol, n) for n in goes_to] + [outcome_label(o.name) for o in protocol.outcomes]


def _fall_through(protocol: MethodProtocol, step: ProtocolStep) -> list[Branch]:
    """Without an Otherwise, a step whose branches do not hold goes on to the next step, as a
    protocol reads from top to bottom; the last step has nowhere to go."""
    if any(b.otherwise for b in step.branches) or step.number >= len(protocol.steps):
        return []
    return [Branch(line=step.line, condition="", otherwise=True, step=step.number + 1)]


def _offer(protocol: MethodProtocol, labels: list[str], scope: Scope) -> Next:
    """The labels left to choose among, outcomes that cannot be reached left out; one left is forced."""
    closed = {outcome_label(o.name) for o in protocol.outcomes if outcome_holds(o, scope) is False}
    left = list(dict.fromkeys(label for label in labels if label not in closed))
    if len(left) == 1:
        return Next(left[0], [], "forced")
    return Next(None, left, "model")


def _reachable(protocol: MethodProtocol, branch: Branch, scope: Scope) -> bool:
    """A branch into an outcome whose checks are false is no way out: it counts as false."""
    if branch.outcome is None:
        return True
    outcome = next(o for o in protocol.outcomes if o.name == branch.outcome)
    return outcome_holds(outcome, scope) is not False


def _target(protocol: MethodProtocol, branch: Branch) -> str:
    return outcome_label(branch.outcome) if branch.outcome else step_label(protocol, branch.step or 1)


def apply_sets(step: ProtocolStep | None, protocol: MethodProtocol, scope: Scope, state: dict[str, Any]) -> list[str]:
    """Runs the step's [set: ...] in order, each seeing the state the ones before left; returns
    what could not be set (the variable is then left as it was)."""
    kinds = {v.name: v.type for v in protocol.state}
    problems = []
    for assignment in step.sets if step is not None else []:
        value = compiled(assignment.expression).evaluate(scope)
        if value is UNKNOWN or not fits(kinds[assignment.name], value):
            problems.append(f"[set: {assignment.name} = {assignment.expression}] gave {value!r}, not a "
                            f"{kinds[assignment.name]}; {assignment.name} is unchanged")
            continue
        state[assignment.name] = value
    return problems
