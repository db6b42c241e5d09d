"""`mcagent eval --ray` on a local Ray instance of 2 CPUs and real servers: the records local
workers give, each episode's files back in OUT, and no episode, server or bridge left when the
eval ends, is stopped or is killed; nor any of Ray's processes once the instance stops."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent.eval.ray_head import local_ray
from agent.eval.records import EPISODES_FILE, EpisodeRecord, read_episodes
from agent.trace.reader import read_trace
from support.planning import EXPLORE_POLICY, FIXTURES, STATUS_POLICY
from support.procs import env_with_token, mcagent, new_token, processes_with_token, transcript, wait_until_gone
from support.waiting import wait_for

SUITES = FIXTURES / "eval"
# What differs between two runs of the same episode: how long it took, and where its trace is.
UNCOMPARED = {"wall_s", "setup_s", "task_s", "run_s", "llm_s", "tool_s", "other_s", "trace"}


def records_by_episode(out: Path) -> dict[tuple[str, int], dict[str, Any]]:
    return {(r.scenario, r.seed): r.model_dump(exclude=UNCOMPARED) for r in read_episodes(out / EPISODES_FILE)}


def episode_processes(token: str) -> list[int]:
    """The eval's episodes, their servers and bridges; not Ray's own processes."""
    found = []
    for pid in processes_with_token(token):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"agent.eval.episode" in command or Path(f"/proc/{pid}/comm").read_text().strip() == "node":
            found.append(pid)
    return found


def test_four_episodes_as_ray_tasks_give_the_records_local_workers_give(tmp_path):
    token = new_token()
    suite = [str(SUITES / "four.yaml"), "--llm", f"scripted:{EXPLORE_POLICY}"]
    here = mcagent("eval", *suite, "--workers", "2", "--out", str(tmp_path / "local"), token=token, timeout_s=300)
    assert here.returncode == 0, transcript(here)
    with local_ray(cpus=2, env=env_with_token(token)) as head:
        done = mcagent("eval", *suite, "--ray", head.address, "--out", str(tmp_path / "ray"), token=token,
                       env=head.env, timeout_s=300)
        assert done.returncode == 0, transcript(done)
        assert "4 episodes (2 scenarios x 1 backends x 2 seeds), 2 at a time as Ray tasks" in done.stdout
        assert wait_for(lambda: not episode_processes(token), timeout_s=10), "an episode outlived its task"
        assert processes_with_token(token), "Ray's instance should still be up"
    assert wait_until_gone(token, timeout_s=30) == []

    on_ray = records_by_episode(tmp_path / "ray")
    assert len(on_ray) == 4 and on_ray == records_by_episode(tmp_path / "local")
    for record in read_episodes(tmp_path / "ray" / EPISODES_FILE):  # the files came back from the node
        folder = Path(record.trace).parent
        assert folder.parent == tmp_path / "ray" / "episodes" and record.success
        assert any(e.event == "outer_step" for e in read_trace(Path(record.trace)).events)
        assert (folder / "log.txt").is_file() and (folder / "notes.db").stat().st_size > 0
        assert EpisodeRecord.model_validate_json((folder / "record.json").read_text()) == record
    rate = json.loads((tmp_path / "ray" / "throughput.json").read_text())
    assert (rate["episodes"], rate["workers"]) == (4, 2)


def test_when_the_eval_is_killed_the_cluster_ends_its_episode_and_the_episodes_server(tmp_path):
    token = new_token()
    with local_ray(cpus=2, env=env_with_token(token)) as head:
        proc = start_endless_eval(tmp_path, token, "--ray", head.address, env=head.env)
        try:
            assert wait_for(lambda: len(episode_processes(token)) >= 3, timeout_s=90), "no episode started"
            proc.kill()  # nothing of the driver's own runs on: Ray and the episode clean up
            proc.wait()
            assert wait_for(lambda: not episode_processes(token), timeout_s=30), episode_processes(token)
        finally:
            proc.kill()
    assert wait_until_gone(token, timeout_s=30) == []


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_an_eval_on_a_ray_instance_of_its_own_leaves_no_process_when_stopped_or_killed(tmp_path, how):
    token = new_token()
    proc = start_endless_eval(tmp_path, token, "--ray")
    try:
        assert wait_for(lambda: len(episode_processes(token)) >= 3, timeout_s=90), "no episode started"
        proc.send_signal(how)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == (128 + how if how == signal.SIGTERM else -how), err
    assert "Traceback" not in err and "Aborted" not in err, err
    assert wait_until_gone(token, timeout_s=30) == []


def start_endless_eval(tmp_path: Path, token: str, *ray: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """An eval of one episode that would run for minutes (the status policy, step after step)."""
    command = [sys.executable, "-m", "agent.cli", "eval", str(SUITES / "endless.yaml"), "--llm",
               f"scripted:{STATUS_POLICY}", "--out", str(tmp_path / "out"), *ray]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            text=True, env={**env_with_token(token), **(env or {})})
