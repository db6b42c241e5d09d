"""Steering a run from outside it: a stop request and new goals, from chat commands; and how
what stops a run from outside ends each plan (ENDINGS).

They arrive on another thread (the chat commander's) and take effect at the next step: a
stop before any outer or inner step, a new goal before the next outer step.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from typing import Literal

from agent.llm import LlmError
from agent.trace.schema import Outcome


class StopRequested(BaseException):  # noqa: N818 - named for what happened, like KeyboardInterrupt
    """Ends the run cleanly with outcome "stopped". A BaseException, like KeyboardInterrupt, so
    that the executor, which turns a tool's exceptions into failed results, lets it through
    from inside a method or a sub-plan."""


class LlmFailed(BaseException):  # noqa: N818 - named for what happened
    """The LLM failed inside a method or a sub-plan. A BaseException, so that the executor, which
    turns a tool's exceptions into failed results, lets it through: the prompt may be left
    mid-turn, so the run cannot go on, and it ends as failed with the backend's reason."""


class WorldLost(BaseException):  # noqa: N818 - named for what happened
    """The bot lost its server and could not join again (agent/session/keeper.py). A
    BaseException, so that it ends the run from inside a method or a sub-plan too: the run
    ends with outcome "disconnected" and the reason."""


class RunControl:
    def __init__(self) -> None:
        self._stop: str | None = None
        self._goals: queue.SimpleQueue[str] = queue.SimpleQueue()

    def request_stop(self, by: str) -> None:
        self._stop = by

    def add_goal(self, goal: str) -> None:
        self._goals.put(goal)

    def check(self) -> None:
        """Raises StopRequested once a stop was asked for."""
        if self._stop is not None:
            raise StopRequested(f"stopped, as {self._stop} asked")

    def new_goals(self) -> list[str]:
        goals = []
        while not self._goals.empty():
            goals.append(self._goals.get())
        return goals


@dataclass(frozen=True)
class Ending:
    """How an exception ends a plan: its outcome and reason (None: the exception's words); the
    source of the trace's error record, if it gets one, and whether only the top plan records it
    (else the plan it first ends does); what a nested plan raises to the one above (None: the
    exception itself)."""

    outcome: Outcome
    reason: str | None = None
    error: Literal["llm", "bot"] | None = None
    recorded_at_top: bool = False
    passed_as: type[BaseException] | None = None


# Every exception that ends a run as an outcome rather than as our bug. Only the top plan turns
# it into the run's outcome; a nested one records its own end and passes it up.
ENDINGS: dict[type[BaseException], Ending] = {
    KeyboardInterrupt: Ending("interrupted", reason="interrupted by Ctrl-C"),
    StopRequested: Ending("stopped"),
    WorldLost: Ending("disconnected", error="bot", recorded_at_top=True),
    LlmError: Ending("llm_error", error="llm", passed_as=LlmFailed),
    LlmFailed: Ending("llm_error", passed_as=LlmFailed),  # recorded where the LlmError happened
}


def ending(e: BaseException) -> Ending:
    """The ENDINGS row of `e`, one of their types."""
    return next(row for kind, row in ENDINGS.items() if isinstance(e, kind))
