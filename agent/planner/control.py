"""Steering a run from outside it: a stop request and new goals, from chat commands.

They arrive on another thread (the chat commander's) and take effect at the next step: a
stop before any outer or inner step, a new goal before the next outer step.
"""

from __future__ import annotations

import queue


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
