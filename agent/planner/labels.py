"""NEXT_TASK labels: `[METHOD: STEP X] TITLE` for a step, `TERMINATION (OUTCOME)` for an outcome."""

from __future__ import annotations

import re

from agent.protocol.models import MethodProtocol, ProtocolStep

_STEP_LABEL = re.compile(r"\[METHOD: STEP (\d+)\]")
_TERMINATION = re.compile(r"TERMINATION \((\w+)\)")


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
