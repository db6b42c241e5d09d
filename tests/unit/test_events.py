"""EventLog: ordering, bounded waits, listeners."""

from __future__ import annotations

import threading
import time

import pytest

from agent.bridge.errors import BridgeError
from agent.bridge.events import EventLog
from agent.bridge.models import BotEvent


def event(kind: str, **fields: object) -> BotEvent:
    return BotEvent(kind=kind, time=time.time(), **fields)


def test_events_are_numbered_in_arrival_order() -> None:
    log = EventLog()
    log.push(event("spawn"))
    log.push(event("chat", username="a", message="hi"))
    assert [(e.seq, e.kind) for e in log.events()] == [(1, "spawn"), (2, "chat")]
    assert [e.kind for e in log.events(after=1)] == ["chat"] and log.last_seq == 2


def test_wait_for_wakes_on_a_later_event() -> None:
    log = EventLog()
    threading.Timer(0.05, lambda: log.push(event("chat", username="b", message="later"))).start()
    got = log.wait_for("chat", timeout_s=2, match=lambda e: e.username == "b")
    assert got.message == "later"


def test_wait_for_times_out_with_a_coded_error() -> None:
    log = EventLog()
    log.push(event("chat", username="a", message="old"))
    started = time.monotonic()
    with pytest.raises(BridgeError, match="no 'chat' event within 0.1 s") as e:
        log.wait_for("chat", timeout_s=0.1, after=log.last_seq)
    assert e.value.code == "timeout" and time.monotonic() - started < 1


def test_listeners_see_each_event() -> None:
    log, seen = EventLog(), []
    log.subscribe(seen.append)
    log.push(event("death"))
    assert [e.kind for e in seen] == ["death"]
