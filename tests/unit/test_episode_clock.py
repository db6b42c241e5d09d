"""An episode's clock: the task's time is counted from when its bots stand in the world, not from
the process's start. The runner bounds set-up and run apart, so a set-up longer than the task's
time costs the task nothing; a record written when the run ended is kept when the teardown is
killed; a set-up that never ends and a run that overruns are ended, each saying which. The
session's deadline stops every run at the given time and halts its bot until the run ends."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from agent.eval import runner
from agent.eval.episode import READY_FILE, EpisodeClock, EpisodeSpec
from agent.eval.records import EpisodeRecord, EpisodeTimes
from agent.eval.runner import Episodes
from agent.eval.suite import load_suite
from agent.llm import Usage
from agent.paths import SERVER_CONFIG_DIR
from agent.planner import RunResult
from agent.planner.control import RunControl, StopRequested
from agent.session.deadline import HALT_EVERY_S, stopped_after

# A stand-in for `python -m agent.eval.episode SPEC`: set-up for SETUP s, then the bots stand in
# the world (READY_FILE); the run for RUN s, then its record (RECORD, or none when empty); then a
# teardown of TEARDOWN s.
FAKE_EPISODE = """
import sys, time
from pathlib import Path
folder, setup, run, teardown, record = Path(sys.argv[1]).parent, *map(float, sys.argv[2:5]), sys.argv[5]
time.sleep(setup)
(folder / "{ready}").write_text("ready")
time.sleep(run)
if record:
    (folder / "record.json").write_text(record)
time.sleep(teardown)
""".format(ready=READY_FILE)


def spec_in(folder: Path, timeout_s: float) -> EpisodeSpec:
    suite, tasks = load_suite(SERVER_CONFIG_DIR / "eval" / "explore.yaml")
    task = tasks[0].model_copy(update={"timeout_s": timeout_s})
    return EpisodeSpec(suite=suite.name, task=task, seed=0, llm="random", options=suite.planner, folder=folder)


def run_fake(spec: EpisodeSpec, monkeypatch: pytest.MonkeyPatch, setup: float, run: float, teardown: float,
             record: EpisodeRecord | None) -> EpisodeRecord:
    real = subprocess.Popen
    written = record.model_dump_json() if record is not None else ""
    monkeypatch.setattr(subprocess, "Popen", lambda argv, **kw: real(
        [sys.executable, "-c", FAKE_EPISODE, argv[-1], str(setup), str(run), str(teardown), written], **kw))
    return Episodes(timeout_s=900).run(spec)


@pytest.fixture(autouse=True)
def short_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Margins a loaded machine keeps (a fake episode's interpreter may take a second to start).
    monkeypatch.setattr(runner, "SETUP_BOUND_S", 5.0)
    monkeypatch.setattr(runner, "END_GRACE_S", 1.5)
    monkeypatch.setattr(runner, "TERM_GRACE_S", 1.0)


def verified(spec: EpisodeSpec) -> EpisodeRecord:
    done = RunResult(outcome="success", reason="goal reached", steps=1, inner_steps=0, wall_s=0.3,
                     usage=Usage())
    return spec.record(done, done.reason, EpisodeTimes(wall_s=1.3, setup_s=1.0, task_s=0.3))


def test_a_set_up_longer_than_the_tasks_time_costs_it_nothing_and_a_killed_teardown_keeps_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = spec_in(tmp_path, timeout_s=0.5)  # the process's whole life is 1 + 0.3 + 30 s
    started = time.monotonic()
    record = run_fake(spec, monkeypatch, setup=1.0, run=0.3, teardown=30, record=verified(spec))
    assert record.success and (record.setup_s, record.task_s) == (1.0, 0.3)
    assert time.monotonic() - started < 15  # killed in its teardown, not waited for (30 s)


def test_a_set_up_that_never_ends_is_ended_at_its_own_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = run_fake(spec_in(tmp_path, timeout_s=60), monkeypatch, setup=30, run=0, teardown=0, record=None)
    assert record.outcome == "error" and record.setup_s is None
    assert record.reason == "set-up did not end in 5 s: the bots never stood in the world"


def test_a_run_past_its_time_and_grace_is_ended_with_the_set_up_it_had(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    record = run_fake(spec_in(tmp_path, timeout_s=0.5), monkeypatch, setup=0.3, run=30, teardown=0, record=None)
    assert record.outcome == "error" and record.setup_s is not None and 0.2 < record.setup_s < 5.0
    assert record.reason == "timed out: no record 1.5 s after the run's time of 0.5 s in the world"


def test_the_episodes_clock_starts_when_the_bots_stand_in_the_world(tmp_path: Path) -> None:
    clock = EpisodeClock(spec_in(tmp_path, timeout_s=60))
    assert clock.times().setup_s is None and not (tmp_path / READY_FILE).exists()
    time.sleep(0.2)
    clock.ready(SimpleNamespace())
    time.sleep(0.1)
    clock.run_ended()
    time.sleep(1.0)  # the world read after the run (a build's score) is not the task's time
    times = clock.times()
    assert (tmp_path / READY_FILE).exists() and times.setup_s is not None and times.task_s is not None
    assert times.setup_s >= 0.2 and 0.1 <= times.task_s < 1.0 and times.wall_s >= 1.3


def test_a_success_verified_past_the_task_s_time_is_recorded_as_none(tmp_path: Path) -> None:
    """The deadline stops a run at its next step; a step under way may still end after it."""
    spec = spec_in(tmp_path, timeout_s=60).model_copy(update={"bound_s": 0.1})
    clock = EpisodeClock(spec)
    clock.ready(SimpleNamespace())
    time.sleep(0.2)
    clock.run_ended()
    clock.ended(RunResult(outcome="success", reason="verified: 1 in the inventory", steps=3, inner_steps=0,
                          wall_s=0.2, usage=Usage(), claims=0, claims_refused=0), None)
    assert clock.record.outcome == "stopped"
    said = f"verified at {clock.record.task_s:.1f} s of the run, past the task's 0.1 s: verified: 1 in"
    assert clock.record.task_s >= 0.2 and clock.record.reason.startswith(said)


class FakeBot:
    def __init__(self) -> None:
        self.halted = 0

    def halt(self) -> None:
        self.halted += 1


def test_the_deadline_stops_every_run_and_halts_its_bot_and_only_within_its_block() -> None:
    runs = [(RunControl(), SimpleNamespace(bot=FakeBot())) for _ in range(2)]
    with stopped_after(0.1, runs):
        time.sleep(0.1 + HALT_EVERY_S + 0.2)
    for control, session in runs:
        with pytest.raises(StopRequested, match="the deadline of 0.1 s in the world"):
            control.check()
        assert session.bot.halted == 2  # at the deadline, and again until the run ended
    left = [(RunControl(), SimpleNamespace(bot=FakeBot()))]
    with stopped_after(0.2, left):
        pass
    time.sleep(0.3)
    left[0][0].check()  # the block ended before the deadline: nothing is stopped
    with stopped_after(None, left):
        left[0][0].check()
