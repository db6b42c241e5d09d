"""A run's wall deadline, counted from when its bots stand in the world: starting a server,
loading a model and joining bots is set-up, not the task's time (a Mindcraft task's `timeout` is
its agents' time in the world). At the deadline each run is asked to stop at its next step and
what its bot is doing is halted (a walk, a long mc-build), so the run still ends as a run, with
its result and the world read after it, rather than being killed unscored."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from agent.planner.control import RunControl
from agent.session.world import WorldSession


# After the deadline the bots are halted again this often until the runs end: a tool made of many
# world calls (craft: a find, a collect, crafts) starts a new one after a one-off halt.
HALT_EVERY_S = 0.5


@contextmanager
def stopped_after(seconds: float | None, runs: Sequence[tuple[RunControl, WorldSession]]) -> Iterator[None]:
    """Within the block, each run of `runs` is stopped once `seconds` have passed (None: never)."""
    if seconds is None:
        yield
        return
    ended = threading.Event()

    def stop() -> None:
        if ended.wait(seconds):
            return
        for control, _ in runs:
            control.request_stop(f"the deadline of {seconds:g} s in the world")
        while True:
            for _, session in runs:
                session.bot.halt()  # the bot of the moment: a rejoin brings a new one
            if ended.wait(HALT_EVERY_S):
                return

    watch = threading.Thread(target=stop, name="deadline", daemon=True)
    watch.start()
    try:
        yield
    finally:
        ended.set()
        watch.join()
