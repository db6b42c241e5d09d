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

from dataclasses import dataclass

from agent.planner.labels import outcome_label, step_label, step_of
from agent.planner.scope import Scope, compiled
from agent.protocol.models import Branch, MethodProtocol, Outcome, ProtocolStep
from agent.trace.schema import Decider


@dataclass(frozen=True)
class Next:
    """The next task when the runtime decided it (`decided`, by `decider`), else the labels the
    model chooses among. Neither: no way on is left (every branch is checked and false)."""

    decided: str | None
    choices: list[str]
    decider: Decider


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
