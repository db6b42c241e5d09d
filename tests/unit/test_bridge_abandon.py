"""After a call into Node was abandoned (Ctrl-C halfway), JSPyBridge's reader thread dies of
BrokenBarrierError handing over the late reply; that one error of that one thread stays off
stderr, any other thread error still reaches the hook it had (agent/bridge/runtime.py)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from agent.bridge import runtime

READER, OTHER = threading.Thread(name="loop"), threading.Thread(name="worker")


@pytest.mark.parametrize(("thread", "error", "reported"), [
    (READER, threading.BrokenBarrierError, False),
    (OTHER, threading.BrokenBarrierError, True),
    (READER, RuntimeError, True),
])
def test_only_the_readers_broken_barrier_is_silent(thread, error, reported) -> None:
    seen: list[type[BaseException]] = []
    hook = runtime._quiet_late_replies(lambda args: seen.append(args.exc_type), READER)
    hook(SimpleNamespace(exc_type=error, exc_value=error(), exc_traceback=None, thread=thread))
    assert (seen == [error]) is reported
