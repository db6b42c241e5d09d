"""Finding processes a test started, to prove none outlives its owner.

Every process a test starts inherits MCAGENT_TEST_TOKEN=<unique>, and so do
their children (the Node bridge, the server), so a scan of /proc finds them
all whatever their parent is now.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from agent.process_group import children_by_parent

TOKEN_VAR = "MCAGENT_TEST_TOKEN"


def new_token() -> str:
    return uuid.uuid4().hex


def env_with_token(token: str) -> dict[str, str]:
    return {**os.environ, TOKEN_VAR: token, "PYTHONUNBUFFERED": "1"}


def processes_with_token(token: str) -> list[int]:
    """PIDs of live processes whose environment carries the token (zombies excluded)."""
    needle = f"{TOKEN_VAR}={token}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0") and not _is_zombie(entry):
                found.append(int(entry.name))
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return found


def _is_zombie(entry: Path) -> bool:
    stat = (entry / "stat").read_text()
    return stat[stat.rindex(")") + 2] == "Z"


def wait_until_gone(token: str, timeout_s: float) -> list[int]:
    """Polls until no process carries the token; returns the PIDs still alive at the deadline."""
    deadline = time.monotonic() + timeout_s
    while (alive := processes_with_token(token)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def node_descendants(pid: int) -> list[int]:
    """Node processes below `pid` in the process tree."""
    children = children_by_parent()
    found, stack = [], list(children.get(pid, []))
    while stack:
        p = stack.pop()
        stack.extend(children.get(p, []))
        try:
            if Path(f"/proc/{p}/comm").read_text().strip() == "node":
                found.append(p)
        except OSError:
            continue
    return found


def mcagent(*args: str, token: str, timeout_s: float = 60, env: dict[str, str] | None = None,
            cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Runs the mcagent CLI of this interpreter's environment in a child process (in `cwd` when
    given); `env` adds to the environment."""
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        env={**env_with_token(token), **(env or {})},
        stdin=subprocess.DEVNULL,
        cwd=cwd,
    )


def transcript(proc: subprocess.CompletedProcess[str]) -> str:
    """What a finished command printed, for an assertion message: a failed run's stdout tells why."""
    return f"exit {proc.returncode}\n--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"


def interruptible() -> None:
    """A Popen preexec_fn: give the child the default SIGINT disposition.

    A shell that starts a command in the background (`cmd &`, as some CI runners do) passes
    SIGINT on as ignored, and Python then never turns it into KeyboardInterrupt: tests that
    send SIGINT would test nothing. Children of those tests start with it restored.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


LISTEN = "0A"  # TCP state in /proc/net/tcp


def listening_addresses(port: int) -> list[str]:
    """Local addresses (hex, as the kernel writes them) of sockets listening on `port`."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == LISTEN:
                found.append(address)
    return found
