"""Running episodes N at a time, each `python -m agent.eval.episode` in a session of its own,
so that an interrupted or timed-out episode is ended with everything it started (its server,
its Node bridge). Records are appended to episodes.jsonl as episodes end."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.eval.episode import READY_FILE, EpisodeSpec
from agent.eval.lanes import Lanes
from agent.eval.records import EPISODES_FILE, EpisodeRecord, EpisodeTimes, append_episode
from agent.process_group import end_group

# An episode's process gets this long to end after SIGTERM (its server saves and stops in 5 s).
TERM_GRACE_S = 10.0
# The episode's set-up (the server's start, the model's load, the bots' joining) is bounded apart
# from its run: the task's time is the bots' time in the world, counted from when they stand in
# it (episode.py READY_FILE), so a slow start never eats it; this bound only keeps a hung start
# from holding the eval.
SETUP_BOUND_S = 600.0
# At the run's time the episode stops its own run (agent/session/deadline.py); it then reads the
# check, writes its record and lets the world go: this long more before it is killed. A build's
# reads the world to score it (a walk back to the build, one read).
END_GRACE_S = 60.0
SCORE_GRACE_S = 180.0
POLL_S = 0.25
LOG_TAIL_CHARS = 400


class Waited(BaseModel):
    """How an episode's process ended: `killed` says why the runner ended it (None: it exited)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    killed: str | None = None
    setup_s: float | None = None  # as the runner saw it: until READY_FILE appeared


class Episodes:
    """The episodes' processes: started, waited for, and all ended on an interrupt."""

    def __init__(self, timeout_s: float, lanes: Lanes | None = None, workdir: Path | None = None):
        """`lanes`: handed to the episodes as they start; None: each keeps the lane its spec has
        (a Ray task's, given by the driver). `workdir`: None, this process's."""
        self.timeout_s, self.workdir, self._lanes = timeout_s, workdir, lanes
        self._running: set[subprocess.Popen] = set()
        self._lock = threading.Lock()
        self._stopping = False

    def run(self, spec: EpisodeSpec) -> EpisodeRecord:
        if self._lanes is None:
            return self._run(spec)
        with self._lanes.held() as lane:
            return self._run(spec.model_copy(update={"lane": lane}))

    def _run(self, spec: EpisodeSpec) -> EpisodeRecord:
        started = time.monotonic()
        # A task's own timeout (a Mindcraft task's) first.
        spec = spec.model_copy(update={"bound_s": spec.task.timeout_s or self.timeout_s})
        spec_file = spec.save()
        for stale in (spec.record_path, spec.folder / READY_FILE):  # a resumed episode's earlier try
            stale.unlink(missing_ok=True)
        log = spec.folder / "log.txt"
        with log.open("w", encoding="utf-8") as out, self._lock:
            if self._stopping:
                return spec.record(None, "not run: the eval was interrupted", EpisodeTimes(wall_s=0.0))
            proc = subprocess.Popen([sys.executable, "-m", "agent.eval.episode", str(spec_file)], stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                                    cwd=self.workdir)
            self._running.add(proc)
        try:
            waited = wait_bounded(proc, spec)
        finally:
            with self._lock:
                self._running.discard(proc)
        if spec.record_path.is_file():  # written when the run ended: a kill in the teardown keeps it
            return EpisodeRecord.model_validate_json(spec.record_path.read_text(encoding="utf-8"))
        times = EpisodeTimes(wall_s=time.monotonic() - started, setup_s=waited.setup_s)
        if waited.killed is not None:
            return spec.record(None, waited.killed, times)
        tail = log.read_text(encoding="utf-8", errors="replace")[-LOG_TAIL_CHARS:].strip().replace("\n", " | ")
        return spec.record(None, f"the episode's process exited {proc.returncode} without a record: {tail}", times)

    def stop_all(self) -> None:
        """Ends every running episode and refuses new ones (Ctrl-C, SIGTERM)."""
        with self._lock:
            self._stopping = True
            running = list(self._running)
        for proc in running:
            end_group(proc, TERM_GRACE_S)


def wait_bounded(proc: subprocess.Popen, spec: EpisodeSpec) -> Waited:
    """Waits for an episode's process: SETUP_BOUND_S until its bots stand in the world, then its
    run's time and the grace after it; on either bound ends it, saying which."""
    started, ready = time.monotonic(), spec.folder / READY_FILE
    while not ready.exists():
        if _ended(proc, POLL_S):
            return Waited()
        if time.monotonic() - started > SETUP_BOUND_S:
            end_group(proc, TERM_GRACE_S)
            return Waited(killed=f"set-up did not end in {SETUP_BOUND_S:g} s: the bots never stood in the world")
    setup_s = round(time.monotonic() - started, 3)
    grace = SCORE_GRACE_S if spec.task.build is not None else END_GRACE_S
    assert spec.bound_s is not None, "Episodes._run sets it"
    if _ended(proc, spec.bound_s + grace):
        return Waited(setup_s=setup_s)
    end_group(proc, TERM_GRACE_S)
    return Waited(killed=f"timed out: no record {grace:g} s after the run's time of {spec.bound_s:g} s in the world",
                  setup_s=setup_s)


def _ended(proc: subprocess.Popen, within_s: float) -> bool:
    try:
        proc.wait(timeout=within_s)
    except subprocess.TimeoutExpired:
        return False
    return True


def run_all(specs: list[EpisodeSpec], out: Path, workers: int, timeout_s: float,
            on_done: Callable[[EpisodeRecord, int], None]) -> list[EpisodeRecord]:
    """Runs every episode, `workers` at a time, as collect() records them. On an interrupt every
    episode is ended."""
    episodes = Episodes(timeout_s, Lanes(workers))
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="episode")
    try:
        futures = [pool.submit(episodes.run, spec) for spec in specs]
        return collect((future.result() for future in as_completed(futures)), out, on_done)
    except BaseException:
        episodes.stop_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def collect(records: Iterable[EpisodeRecord], out: Path,
            on_done: Callable[[EpisodeRecord, int], None]) -> list[EpisodeRecord]:
    """Each record as it comes: appended to out/episodes.jsonl, then passed to `on_done` with the
    count so far."""
    done: list[EpisodeRecord] = []
    for record in records:
        done.append(record)
        append_episode(out / EPISODES_FILE, record)
        on_done(record, len(done))
    return done
