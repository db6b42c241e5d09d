"""Child processes that must not outlive their parent's command: each runs in a session (and
process group) of its own and is ended with the whole group.

    python -m agent.process_group -- COMMAND [ARG ...]

runs COMMAND (a binary that cannot watch for its parent's death itself, such as llama-server)
in this process's group, and ends the group when this process's parent is gone, even by
SIGKILL; otherwise it waits for COMMAND and exits with its code.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

# How often a child looks whether its parent is still there.
PARENT_POLL_S = 0.5


def end_group(proc: subprocess.Popen, grace_s: float) -> None:
    """SIGTERM to `proc`'s process group, SIGKILL past `grace_s`; then SIGKILL for anything the
    leader left behind in its group. Idempotent: a group already gone is fine."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=grace_s)
            break
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the OS's pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def when_parent_dies(act: Callable[[], None]) -> None:
    """Runs `act` on a daemon thread once this process's parent is gone, even by SIGKILL: a child
    in a session of its own gets no hang-up from it, and must not outlive it."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        act()

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def group_members(pgid: int) -> list[int]:
    """The live processes of process group `pgid` (zombies excluded)."""
    return [pid for pid, stat in _process_stats() if int(stat[2]) == pgid and stat[0] != "Z"]


def children_by_parent() -> dict[int, list[int]]:
    """Every process's direct children, by parent pid."""
    children: dict[int, list[int]] = {}
    for pid, stat in _process_stats():
        children.setdefault(int(stat[1]), []).append(pid)
    return children


def _process_stats() -> Iterator[tuple[int, list[str]]]:
    """Every process's pid and the fields of its /proc/PID/stat after the command's name: state,
    parent, process group, ... (Linux)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # gone meanwhile
            yield int(entry.name), stat.rsplit(")", 1)[1].split()


def guard(command: list[str]) -> int:
    """Runs `command` in this process group until it exits, ending the group if the parent dies."""
    when_parent_dies(lambda: os.killpg(os.getpgrp(), signal.SIGKILL))
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    # SIGTERM comes to the whole group (end_group): the child ends itself; wait for it.
    signal.signal(signal.SIGTERM, lambda *_: None)
    return child.wait()


if __name__ == "__main__":
    if sys.argv[1:2] != ["--"] or len(sys.argv) < 3:
        sys.exit("usage: python -m agent.process_group -- COMMAND [ARG ...]")
    sys.exit(guard(sys.argv[2:]))
