"""A Ray instance on this machine for one command (`mcagent eval --ray` with no address, the tests).

    python -m agent.eval.ray_head --head --block --port P --num-cpus N ...   # `ray start`'s flags

This process is `ray start --block` (Ray's own CLI, every flag unchanged) which also ends when
its parent does: `ray.init()` starting an instance itself leaves Ray's agent processes behind
when the command that started it is killed. Started in a session of its own, SIGTERM stops Ray
whole (what `ray start --block` does on a signal). The instance uses token authentication with
a token of its own: Ray's services listen on every interface, whatever the node address.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from agent.errors import McAgentError
from agent.process_group import end_group, free_port, group_members, when_parent_dies

READY_TIMEOUT_S = 60.0
STOP_GRACE_S = 15.0
READY_LINE = "Ray runtime started."  # what `ray start` prints once its GCS and raylet are up


@dataclass(frozen=True)
class LocalRay:
    address: str  # host:port of its GCS, for ray.init(address=...)
    env: dict[str, str]  # what a driver needs in its environment to be let in


@contextmanager
def local_ray(cpus: int, env: dict[str, str] | None = None) -> Iterator[LocalRay]:
    """Starts a Ray instance with `cpus` CPUs and stops it, every process of it, on the way out."""
    port = free_port()
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    command = [sys.executable, "-m", "agent.eval.ray_head", "--head", "--block", f"--port={port}",
               f"--num-cpus={cpus}", "--include-dashboard=false", "--disable-usage-stats"]
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env={**(env if env is not None else os.environ), **auth}, start_new_session=True)
        try:
            _wait_ready(proc, log)
            yield LocalRay(address=f"127.0.0.1:{port}", env=auth)
        finally:
            _stop(proc)


def _wait_ready(proc: subprocess.Popen, log: IO[str]) -> None:
    """Until `ray start` says its processes are up (its GCS and raylet both), or it exits."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline and proc.poll() is None:
        log.seek(0)
        if READY_LINE in log.read():
            return
        time.sleep(0.2)
    log.seek(0)
    said = " | ".join(log.read().strip().splitlines()[-3:]) or "no output"
    if proc.poll() is not None:
        raise McAgentError(f"a local Ray instance exited as it started (code {proc.returncode}): {said}")
    raise McAgentError(f"a local Ray instance did not start within {READY_TIMEOUT_S:g} s: {said}")


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to `ray start`, which stops its processes (all of them at once is slower: 15 s
    here), then whatever is left of its group; returns once the group is gone."""
    proc.terminate()
    try:
        proc.wait(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        pass
    end_group(proc, STOP_GRACE_S)
    deadline = time.monotonic() + STOP_GRACE_S
    while group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)


def main() -> None:
    when_parent_dies(lambda: os.kill(os.getpid(), signal.SIGTERM))
    from ray.scripts.scripts import main as ray_cli  # noqa: PLC0415 - Ray's import is slow; only here

    sys.argv = ["ray", "start", *sys.argv[1:]]
    ray_cli()


if __name__ == "__main__":
    main()
