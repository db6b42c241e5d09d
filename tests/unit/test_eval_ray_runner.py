"""`mcagent eval --ray` without a cluster: bad addresses refused in one line, and the driver's
side of the tasks (how many in flight, what lands in OUT, a failed task) against a fake Ray."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from agent.eval.episode import episode_specs
from agent.errors import ConfigError, McAgentError
from agent.eval import ray_runner
from agent.eval.episode import EpisodeSpec
from agent.eval.ray_head import local_ray
from agent.eval.records import EpisodeTimes
from agent.eval.ray_runner import EpisodeReturn, RayEpisodes, ray_cluster, slots
from agent.eval.suite import load_suite
from agent.paths import SERVER_CONFIG_DIR


@pytest.mark.parametrize(("address", "says"), [
    ("server-config/eval/explore.yaml", "is not a Ray address (accepted: auto, local, HOST:PORT"),
    ("ray://", "is not a Ray address"),
    ("127.0.0.1:1", "eval --ray 127.0.0.1:1: nothing answers there"),
])
def test_a_bad_address_is_refused_in_one_line_at_once(address, says):
    started = time.monotonic()
    with pytest.raises(ConfigError) as caught, ray_cluster(address):
        pass
    assert says in str(caught.value) and "\n" not in str(caught.value)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("where", ["recorded", "environment"])
def test_auto_probes_the_cluster_it_would_join_and_refuses_a_stopped_one_at_once(where, tmp_path, monkeypatch):
    """A stopped cluster's address stays in Ray's temp folder; Ray would wait minutes on it."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "ray_current_cluster").write_text("127.0.0.1:1\n")
    named = f"auto (the cluster last started here, 127.0.0.1:1, in {tmp_path / 'ray' / 'ray_current_cluster'})"
    if where == "environment":
        monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
        named = "auto (RAY_ADDRESS=127.0.0.1:1)"
    started = time.monotonic()
    with pytest.raises(ConfigError) as caught, ray_cluster("auto"):
        pass
    assert str(caught.value).startswith(f"eval --ray {named}: nothing answers there (")
    assert time.monotonic() - started < 5


def test_a_ray_instance_that_cannot_start_says_why_and_leaves_nothing():
    with pytest.raises(McAgentError) as caught, local_ray(cpus=-1):
        pass
    assert not isinstance(caught.value, ConfigError)  # not the user's input: exit 1, not 2
    assert str(caught.value).startswith("a local Ray instance exited as it started (code 1): ")
    assert "Resource quantities must be nonnegative" in str(caught.value)


def test_without_ray_installed_the_flag_says_how_to_get_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(ConfigError, match=r"pip install 'mcagent\[ray\]'"), ray_cluster("auto"):
        pass


class FakeRay:
    """Ray's surface RayEpisodes uses; each task 'runs' at once, by `outcome(spec)`."""

    def __init__(self, cpus: float = 4, outcome: Any = None):
        self.cpus, self.outcome, self.submitted = cpus, outcome, []

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": self.cpus, "memory": 1e9}

    def remote(self, **options: Any) -> Any:
        assert options == {"num_cpus": 1, "max_retries": 0}
        return lambda fn: SimpleNamespace(remote=self._run)

    def _run(self, spec_json: str, timeout_s: float, workdir: str) -> SimpleNamespace:
        spec = EpisodeSpec.model_validate_json(spec_json)
        self.submitted.append(spec.seed)
        future: Future = Future()
        try:
            future.set_result(self.outcome(spec))
        except Exception as e:  # noqa: BLE001 - what the task raised comes out of its future
            future.set_exception(e)
        return SimpleNamespace(future=lambda: future)


def specs(tmp_path: Path, seeds: int) -> list[EpisodeSpec]:
    suite, tasks = load_suite(SERVER_CONFIG_DIR / "eval" / "explore.yaml")
    return episode_specs(suite, tasks[:1], ["random"], seeds, tmp_path / "out", None, threads=1)


def returned(spec: EpisodeSpec) -> EpisodeReturn:
    """What a task on a node sends back: its record names the node's folder."""
    node = spec.model_copy(update={"folder": Path("/node/tmp/mcagent-episode-x")})
    return EpisodeReturn(record=node.record(None, "ran", EpisodeTimes(wall_s=1.5)),
                         files={"trace.jsonl": b"", "log.txt": f"seed {spec.seed}\n".encode(), "sub/map.bin": b"\x01"})


def test_limit_tasks_are_in_flight_and_each_lands_in_the_episodes_folder(tmp_path):
    ray = FakeRay(outcome=returned)
    episodes = RayEpisodes(ray, timeout_s=60, limit=2)
    records = episodes.records(specs(tmp_path, seeds=3))
    first = next(records)
    assert ray.submitted == [0, 1] and first.seed == 0  # two in flight before the first record
    rest = list(records)
    assert ray.submitted == [0, 1, 2] and [r.seed for r in rest] == [1, 2]
    # Each in flight holds a lane of its own; the third takes the lane the first gave back.
    for spec, record, lane in zip(specs(tmp_path, seeds=3), [first, *rest], [0, 1, 0], strict=True):
        assert record.trace == str(spec.trace_path) and record.reason == "ran"
        assert (spec.folder / "log.txt").read_text() == f"seed {spec.seed}\n"
        assert (spec.folder / "sub" / "map.bin").read_bytes() == b"\x01"
        saved = EpisodeSpec.model_validate_json((spec.folder / "spec.json").read_text())
        assert saved == spec.model_copy(update={"lane": lane})
        assert spec.record_path.read_text() == record.model_dump_json()


def test_a_task_that_fails_becomes_an_error_record_and_the_eval_goes_on(tmp_path):
    def outcome(spec: EpisodeSpec) -> EpisodeReturn:
        if spec.seed == 0:
            raise RuntimeError("The worker died unexpectedly while executing this task.\nstack...")
        return returned(spec)

    records = list(RayEpisodes(FakeRay(outcome=outcome), timeout_s=60, limit=1).records(specs(tmp_path, seeds=2)))
    assert [(r.seed, r.outcome) for r in records] == [(0, "error"), (1, "error")]
    assert records[0].reason == "the Ray task failed: The worker died unexpectedly while executing this task."
    assert records[1].reason == "ran"


@pytest.mark.parametrize(("cpus", "wanted", "episodes", "slots_"), [(4, None, 10, 4), (4, None, 3, 3), (4, 2, 10, 2),
                                                                     (2, 8, 10, 8)])
def test_episodes_in_flight_are_workers_else_the_clusters_cpus_never_more_than_episodes(cpus, wanted, episodes, slots_):
    assert slots(FakeRay(cpus=cpus), wanted, episodes) == slots_


def test_a_cluster_without_cpus_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="the cluster has 0 CPUs"):
        slots(FakeRay(cpus=0), None, 4)


def test_the_task_runs_in_the_drivers_folder_or_says_that_the_node_lacks_it(tmp_path):
    spec = specs(tmp_path, seeds=1)[0]
    back = ray_runner.run_episode_here(spec.model_dump_json(), 60, str(tmp_path / "not-on-this-node"))
    assert back.files == {} and back.record.outcome == "error"
    assert back.record.reason.startswith(f"the eval's working folder {tmp_path / 'not-on-this-node'} is not on node ")


def test_a_new_episode_folder_removes_those_of_dead_workers_only(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen(["true"])
    ended.wait()  # a worker that was killed: its pid is no process now
    dead = tmp_path / f"{ray_runner.EPISODE_FOLDER}{ended.pid}-abc"
    living = tmp_path / f"{ray_runner.EPISODE_FOLDER}{os.getppid()}-def"
    other = tmp_path / f"{ray_runner.EPISODE_FOLDER}x"  # not a worker's: not ours to judge
    for folder in (dead, living, other):
        (folder / "trace.jsonl").parent.mkdir()
        (folder / "trace.jsonl").write_text("{}\n")
    made = ray_runner.episode_folder()
    assert made.name.startswith(f"{ray_runner.EPISODE_FOLDER}{os.getpid()}-") and made.is_dir()
    assert not dead.exists() and living.exists() and other.exists()
