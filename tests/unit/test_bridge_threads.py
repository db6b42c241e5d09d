"""JSPyBridge's shared values made safe for a thread per bot (agent/bridge/threads.py), on
stand-ins shaped as JSPyBridge's own: its executor reads and bumps `i` as its calls do, its loop
appends to `outbound` and binds it anew after each write, its reader appends to `com_items`.
Before: ids taken twice, requests and replies lost, a late reply the loop's death; after: none,
under 8 threads at once."""

from __future__ import annotations

import json
import queue
import threading
import time
from types import SimpleNamespace

from agent.bridge.threads import make_thread_safe

THREADS, CALLS = 8, 4000


class Executor:
    def __init__(self) -> None:
        self.i = 0

    def ipc_id(self) -> int:  # as JSPyBridge's ipc takes its id
        self.i += 1
        return self.i

    def pcall_ids(self) -> tuple[int, int]:  # as its pcall takes its two
        call, ffid = self.i + 1, self.i + 2
        self.i += 2
        return call, ffid


class Loop:
    def __init__(self) -> None:
        self.outbound: list[str] = []
        self.requests: dict[int, list] = {}
        self.responses: dict[int, tuple] = {}
        self.queue: queue.SimpleQueue[str] = queue.SimpleQueue()

    def route(self, r: int, reply: dict) -> None:  # as its loop hands a reply over
        if r in self.requests:
            lock, _ = self.requests[r]
            barrier = threading.Barrier(2, timeout=5)
            self.responses[r] = reply, barrier
            del self.requests[r]
            lock.set()
            barrier.wait()

    def queue_request(self, request_id: int, payload: str, timeout: float | None = None) -> threading.Event:
        self.outbound.append(payload)  # as JSPyBridge's: sent before its reply is registered
        lock = threading.Event()
        self.requests[request_id] = [lock, timeout]
        return lock

    def await_response(self, request_id: int, timeout: float | None = None) -> threading.Event:
        lock = threading.Event()
        self.requests[request_id] = [lock, timeout]
        return lock

    def send(self, connection: SimpleNamespace) -> None:  # as its loop sends
        connection.writeAll(self.outbound)
        self.outbound = []


def _patched() -> tuple[SimpleNamespace, SimpleNamespace, list[str]]:
    written: list[str] = []
    connection = SimpleNamespace(writeAll=written.extend, com_items=[], readAll=None)
    config = SimpleNamespace(executor=Executor(), event_loop=Loop())
    make_thread_safe(config, connection, first_id=1000)
    return config, connection, written


def _at_once(work) -> None:
    threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_no_two_calls_take_one_id_and_ids_start_where_asked() -> None:
    config, _, _ = _patched()
    taken: list[list[int]] = [[] for _ in range(THREADS)]

    def work(n: int) -> None:
        for _ in range(CALLS):
            taken[n].append(config.executor.ipc_id())
            call, ffid = config.executor.pcall_ids()
            assert ffid == call + 1  # Node answers a call's second message at the first's id + 1
            taken[n] += [call, ffid]

    _at_once(work)
    every = [i for ids in taken for i in ids]
    assert len(every) == len(set(every)) == THREADS * CALLS * 3 and min(every) >= 1000


def test_every_request_is_written_once_whatever_the_loop_rebinds() -> None:
    config, connection, written = _patched()
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            config.event_loop.send(connection)

    sender = threading.Thread(target=loop)
    sender.start()
    _at_once(lambda n: [config.event_loop.queue_request(n * CALLS + k, f"{n}-{k}") for k in range(CALLS)])
    stop.set()
    sender.join()
    config.event_loop.send(connection)
    assert sorted(written) == sorted(f"{n}-{k}" for n in range(THREADS) for k in range(CALLS))


def test_every_reply_is_read_once_while_the_reader_appends() -> None:
    _, connection, _ = _patched()
    read: list[int] = []
    done = threading.Event()

    def reader() -> None:
        for k in range(THREADS * CALLS):
            connection.com_items.append(k)
        done.set()

    appender = threading.Thread(target=reader)
    appender.start()
    while not done.is_set():
        read += connection.readAll()
    appender.join()
    read += connection.readAll()
    assert read == list(range(THREADS * CALLS))


def test_a_reply_is_registered_before_its_request_is_sent_and_a_calls_second_reply_too() -> None:
    config, connection, written = _patched()
    loop = config.event_loop
    sent = json.dumps({"r": 7, "action": "call", "args": [{"r": 1, "ffid": ""}]})  # a Python object among them
    lock = loop.queue_request(7, sent)
    assert loop.requests[7][0] is lock and 8 in loop.requests and written == []  # registered, not yet sent
    assert loop.await_response(8) is loop.requests[8][0]  # the call's second reply: the lock set aside
    proxies_only = json.dumps({"r": 9, "action": "call", "args": [{"ffid": 3}]})  # Node makes no proxy: no second reply
    assert loop.queue_request(9, proxies_only) and 10 not in loop.requests
    loop.send(connection)
    assert written == [sent, proxies_only]


def test_a_calls_argument_count_and_flag_are_its_threads_own() -> None:
    config, _, _ = _patched()
    executor, seen = config.executor, []
    executor.ctr, executor.expectReply = 5, True

    def other() -> None:
        executor.ctr, executor.expectReply = 0, False  # as another call starting halfway through this one
        seen.append((executor.ctr, executor.expectReply))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen == [(0, False)] and (executor.ctr, executor.expectReply) == (5, True)


def test_a_reply_whose_caller_stopped_waiting_is_dropped_without_holding_the_loop() -> None:
    config, _, _ = _patched()
    loop = config.event_loop
    late = loop.queue_request(11, "{}")
    assert late.wait(0.01) is False  # the call timed out
    started = time.monotonic()
    loop.route(11, {"r": 11, "val": "late"})  # before: the loop stood 5 s at the barrier, then died
    assert time.monotonic() - started < 1 and 11 not in loop.responses

    on_time = loop.queue_request(12, "{}")
    caller = threading.Thread(target=lambda: on_time.wait(5) and loop.responses[12][1].wait())
    caller.start()
    loop.route(12, {"r": 12, "val": "on time"})
    caller.join()
    assert loop.responses[12][0] == {"r": 12, "val": "on time"}


def test_a_hand_over_nobody_meets_in_time_lets_the_loop_go_on() -> None:
    """Before: the loop's barrier broke after its 5 s and the loop thread died of it."""
    from agent.bridge.threads import _HandOver
    barrier = _HandOver(2, timeout=0.05)
    assert barrier.wait() == -1 and barrier.wait() == -1  # the loop's, then a caller's come too late
