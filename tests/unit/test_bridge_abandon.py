"""After a call into Node was abandoned (Ctrl-C halfway), JSPyBridge's reader thread dies of
BrokenBarrierError handing over the late reply; that one error stays off stderr, any other
thread error still reaches the hook it had (agent/bridge/runtime.py)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from agent.bridge import runtime


def _args(exc_type: type[BaseException]) -> SimpleNamespace:
    return SimpleNamespace(exc_type=exc_type, exc_value=exc_type(), exc_traceback=None, thread=None)


@pytest.mark.parametrize(("abandoned", "error", "reported"), [
    (True, threading.BrokenBarrierError, False),
    (False, threading.BrokenBarrierError, True),
    (True, RuntimeError, True),
])
def test_only_the_barrier_of_an_abandoned_call_is_silent(monkeypatch, abandoned, error, reported) -> None:
    seen: list[type[BaseException]] = []
    monkeypatch.setattr(runtime, "_abandoned", abandoned)
    runtime._quiet_after_abandon(lambda args: seen.append(args.exc_type))(_args(error))
    assert (seen == [error]) is reported
