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

from agent.eval.episode import EpisodeSpec
from agent.eval.lanes import Lanes
from agent.eval.records import EPISODES_FILE, EpisodeRecord, append_episode
from agent.process_group import end_group

# An episode's process gets this long to end after SIGTERM (its server saves and stops in 5 s).
TERM_GRACE_S = 10.0
# A build's episode stops its own run at the bound and reads the world to score it (a walk back to
# the build, one read): this long more before it is killed.
SCORE_GRACE_S = 180.0
LOG_TAIL_CHARS = 400


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
        log = spec.folder / "log.txt"
        with log.open("w", encoding="utf-8") as out, self._lock:
            if self._stopping:
                return spec.record(None, "not run: the eval was interrupted", 0.0)
            proc = subprocess.Popen([sys.executable, "-m", "agent.eval.episode", str(spec_file)], stdout=out,
                                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                                    cwd=self.workdir)
            self._running.add(proc)
        grace = SCORE_GRACE_S if spec.task.build is not None else 0.0
        try:
            proc.wait(timeout=spec.bound_s + grace)
        except subprocess.TimeoutExpired:
            end_group(proc, TERM_GRACE_S)
            return spec.record(None, f"timed out after {spec.bound_s:g} s", time.monotonic() - started)
        finally:
            with self._lock:
                self._running.discard(proc)
        if spec.record_path.is_file():
            return EpisodeRecord.model_validate_json(spec.record_path.read_text(encoding="utf-8"))
        tail = log.read_text(encoding="utf-8", errors="replace")[-LOG_TAIL_CHARS:].strip().replace("\n", " | ")
        return spec.record(None, f"the episode's process exited {proc.returncode} without a record: {tail}",
                           time.monotonic() - started)

    def stop_all(self) -> None:
        """Ends every running episode and refuses new ones (Ctrl-C, SIGTERM)."""
        with self._lock:
            self._stopping = True
            running = list(self._running)
        for proc in running:
            end_group(proc, TERM_GRACE_S)


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
