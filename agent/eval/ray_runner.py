"""`mcagent eval --ray [ADDRESS]`: every episode a Ray task, on whichever node has a CPU free.

A task runs its episode as the local runner does (`Episodes.run`: a process of its own with its
own server and Node bridge, all ended on a timeout or a cancel), in a folder of its node's own,
and returns the record with the folder's files (trace, log, notes). The driver writes them where
the local runner would have, so OUT is the same either way. When the driver dies, Ray ends its
tasks' workers, and each episode's process, its parent gone, stops its server and bridge
(agent.process_group.when_parent_dies).

Every node needs mcagent at the driver's path (scripts/bootstrap.sh in the same checkout, or an
image of it): a task reads the suite's scenario files and the config file by the driver's paths.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import socket
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict

from agent.errors import ConfigError, first_line
from agent.eval.episode import EpisodeSpec
from agent.eval.lanes import Lanes
from agent.eval.ray_head import local_ray
from agent.eval.records import EpisodeRecord, EpisodeTimes
from agent.eval.runner import TERM_GRACE_S, Episodes, collect

LOCAL = "local"  # --ray with no address: a Ray instance on this machine, for this eval only
ADDRESSES = "auto, local, HOST:PORT (a cluster's GCS) or ray://HOST:PORT (Ray Client)"
_ADDRESS = re.compile(r"^(auto|local|(?:ray://)?[A-Za-z0-9.\-\[\]:]+:\d{1,5})$")
# An episode's server, bridge and planner keep about one core busy (README: eval throughput).
CPUS_PER_EPISODE = 1
REACH_TIMEOUT_S = 3.0
EPISODE_FOLDER = "mcagent-episode-"  # + the worker's pid: a task's folder in its node's temp folder


class EpisodeReturn(BaseModel):
    """What a task sends back: its record and its folder's files, by path relative to the folder."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    record: EpisodeRecord
    files: dict[str, bytes]


def run_episode_here(spec_json: str, timeout_s: float, workdir: str) -> EpisodeReturn:
    """The task, on its node: the episode in a temporary folder, as the local runner runs it, in
    the driver's working folder (relative paths in --llm and the like mean the same there)."""
    spec = EpisodeSpec.model_validate_json(spec_json)
    if not Path(workdir).is_dir():
        reason = f"the eval's working folder {workdir} is not on node {socket.gethostname()}: install mcagent there"
        return EpisodeReturn(record=spec.record(None, reason, EpisodeTimes(wall_s=0.0)), files={})
    folder = episode_folder()
    episodes = Episodes(timeout_s, workdir=Path(workdir))
    try:
        record = episodes.run(spec.model_copy(update={"folder": folder}))
        files = {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*")) if f.is_file()}
        return EpisodeReturn(record=record, files=files)
    except BaseException:  # ray.cancel raises KeyboardInterrupt here: the episode ends with its server
        episodes.stop_all()
        raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def episode_folder() -> Path:
    """A new temporary folder, named with this worker's pid, for its episode. The folders of
    workers that died first (a killed worker skips its `finally`) are removed on the way: a pid
    that lives, even reused by another process, keeps its folders."""
    temp = Path(tempfile.gettempdir())
    for stale in temp.glob(f"{EPISODE_FOLDER}*-*"):
        pid = stale.name.removeprefix(EPISODE_FOLDER).split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{EPISODE_FOLDER}{os.getpid()}-"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


class RayEpisodes:
    """Episodes as Ray tasks, `limit` in flight at once; records come back as episodes end.

    It waits on each task's concurrent Future, not in ray.wait: a signal that arrives inside
    ray.wait comes out as SystemExit(1), whatever the CLI's handler raised.
    """

    def __init__(self, ray: ModuleType, timeout_s: float, limit: int):
        self._ray, self.timeout_s, self.limit = ray, timeout_s, limit
        self._task = ray.remote(num_cpus=CPUS_PER_EPISODE, max_retries=0)(run_episode_here)
        self._pending: dict[Future, tuple[Any, EpisodeSpec]] = {}  # each task's Future: its ObjectRef, its spec
        self._lanes = Lanes(limit)

    def records(self, specs: list[EpisodeSpec]) -> Iterator[EpisodeRecord]:
        waiting = list(reversed(specs))
        while waiting or self._pending:
            while waiting and len(self._pending) < self.limit:
                spec = waiting.pop().model_copy(update={"lane": self._lanes.take()})
                ref = self._task.remote(spec.model_dump_json(), self.timeout_s, str(Path.cwd()))
                self._pending[ref.future()] = (ref, spec)
            done, _ = wait(self._pending, return_when=FIRST_COMPLETED)
            for future in [f for f in self._pending if f in done]:  # those ended together, in the order sent
                spec = self._pending.pop(future)[1]
                self._lanes.give_back(spec.lane)
                yield _landed(spec, future)

    def stop_all(self) -> None:
        """Cancels every task in flight and waits for them to end their episodes (Ctrl-C, SIGTERM)."""
        for ref, _ in self._pending.values():
            self._ray.cancel(ref)
        wait(self._pending, timeout=2 * TERM_GRACE_S)


def _landed(spec: EpisodeSpec, future: Future) -> EpisodeRecord:
    """A finished task's files written into the episode's folder on this machine, and its record."""
    try:
        back: EpisodeReturn = future.result()
    except Exception as e:  # noqa: BLE001 - a lost worker or node makes an error record; the eval goes on
        return spec.record(None, f"the Ray task failed: {first_line(e)}", EpisodeTimes(wall_s=0.0))
    for name, data in back.files.items():  # spec.json and record.json are rewritten below, with this folder's paths
        (spec.folder / name).parent.mkdir(parents=True, exist_ok=True)
        (spec.folder / name).write_bytes(data)
    record = back.record.model_copy(update={"trace": str(spec.trace_path)})
    spec.save()
    spec.record_path.write_text(record.model_dump_json(), encoding="utf-8")
    return record


@contextmanager
def ray_cluster(address: str) -> Iterator[ModuleType]:
    """Ray, connected to the cluster at `address`, or to an instance of its own (LOCAL), until the end."""
    if not _ADDRESS.match(address):
        raise ConfigError(f"eval --ray: {address!r} is not a Ray address (accepted: {ADDRESSES}); "
                          "a suite file goes before --ray")
    if importlib.util.find_spec("ray") is None:
        raise ConfigError("eval --ray needs Ray: pip install 'mcagent[ray]' (scripts/bootstrap.sh installs it)")
    with ExitStack() as stack:
        if address == LOCAL:
            head = stack.enter_context(local_ray(os.cpu_count() or 1))
            os.environ.update(head.env)  # before Ray is imported: it reads its settings once
            address = head.address
        elif address == "auto":
            _reachable_auto()
        else:
            _reachable(address)
        ray = _connected(address)
        stack.callback(ray.shutdown)
        yield ray


def _connected(address: str) -> ModuleType:
    # Ray's crash handler would turn SIGTERM into an abort, and ray.init puts in a SIGTERM handler
    # of its own (exit code 15): the CLI's is kept, which ends the episodes on the way out.
    os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = "1"
    import ray  # noqa: PLC0415 - optional: only --ray needs it

    ours = signal.getsignal(signal.SIGTERM)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise ConfigError(f"eval --ray {address}: Ray could not connect: {first_line(e)} (a cluster with token "
                          "authentication, Ray's default, also needs RAY_AUTH_MODE=token and its token here)") from None
    finally:
        signal.signal(signal.SIGTERM, ours)
    return ray


def slots(ray: ModuleType, wanted: int | None, episodes: int) -> int:
    """Episodes in flight at once: --workers, else as many as the cluster's CPUs hold."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < CPUS_PER_EPISODE:
        raise ConfigError(f"eval --ray: the cluster has {cpus} CPUs; an episode needs {CPUS_PER_EPISODE}")
    return max(1, min(wanted or cpus // CPUS_PER_EPISODE, episodes))


def run_on_ray(ray: ModuleType, specs: list[EpisodeSpec], out: Path, workers: int, timeout_s: float,
               on_done: Callable[[EpisodeRecord, int], None]) -> list[EpisodeRecord]:
    """As runner.run_all, with each episode a Ray task: records stream into out/episodes.jsonl."""
    episodes = RayEpisodes(ray, timeout_s, workers)
    try:
        return collect(episodes.records(specs), out, on_done)
    except BaseException:
        episodes.stop_all()
        raise


def _reachable(address: str, named: str | None = None) -> None:
    """Ray waits minutes on an address where nothing listens; a plain connect answers in seconds.
    `named`: how the message names the address (what the user gave), else the address itself."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S).close()
    except OSError as e:
        raise ConfigError(f"eval --ray {named or address}: nothing answers there ({e.strerror or e}); start a cluster "
                          "with `ray start --head`, or give its address") from None


def _reachable_auto() -> None:
    """`auto` is the cluster in RAY_ADDRESS, else the one the last `ray start` on this machine
    wrote down (Ray's temp folder keeps it after that cluster stopped): probed as a given
    address is. With neither, ray.init says at once that it found none."""
    given = os.environ.get("RAY_ADDRESS", "").strip()
    recorded = Path(os.environ.get("RAY_TMPDIR") or tempfile.gettempdir()) / "ray" / "ray_current_cluster"
    if given:
        address, named = given, f"auto (RAY_ADDRESS={given})"
    else:
        try:
            address = recorded.read_text(encoding="utf-8").strip()
        except OSError:
            return
        named = f"auto (the cluster last started here, {address}, in {recorded})"
    if _ADDRESS.match(address) and address not in ("auto", LOCAL):
        _reachable(address, named)