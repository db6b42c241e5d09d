"""JSPyBridge's Python side, made safe to call from several threads (a team calls Node from a
thread per bot, agent/session/team_run.py), without changing its files.

It was written for one calling thread, and its shared values race:
- request ids: a call takes `i += 1; r = i` (a function call `i + 1, i + 2; i += 2`), so two
  threads calling at once can take one id; one reply then wakes neither or both, and the reader
  thread dies 5 s later at a barrier nobody reaches. Seen: two bots calling mc-find at the same
  moment, both runs ended "Timed out accessing 'invoke'", the bridge dead for the rest.
- a function call's argument count and whether it sent a Python object live on the executor,
  where another thread's call resets them halfway.
- the outbox: a call appends its request to `outbound`, the loop writes the list and then
  binds `outbound` to a new one; a request appended in between is never sent.
- the inbox: the loop takes `com_items` and binds it to a new list while the reading thread
  appends to it; a reply appended in between is never routed.
- the order: a call's request is queued before the reply it waits for is registered (and a
  function call's second reply, the ids Node gives the Python objects it was sent, only after
  the request went out); a reply that comes first is dropped and the call times out.
- a late reply: a call that stopped waiting (its timeout, Ctrl-C) stays registered; its reply,
  when it comes, is handed to nobody through a barrier, and the loop thread dies 5 s later; so
  it does when a caller reaches the barrier more than 5 s after its reply (a loaded machine).

Here: `i` is each thread's own, and every bump of it (`i += n`) gives the thread a new block of
ID_STEP ids from one counter; a call uses at most `i`, `i + 1` and `i + 2` of its block before
its bump (Node answers a function call's second message at the first's id + 1, so those two
stay next to each other). The count and the flag are each thread's own. One outbox, never
rebound, drained under a lock; the inbox drained in place; every reply registered before its
request is sent; a late reply met at its barrier in the caller's place and dropped (_Replies);
a barrier nobody met in time given up on without killing the loop (_HandOver).
"""

from __future__ import annotations

import itertools
import sys
import threading
from types import ModuleType
from typing import Any

# What a function call writes of a Python object it sends (`{"r": n, "ffid": ""}`, json.dumps'
# spacing): Node then answers first with the ids it gave them, at the call's id + 1.
SENT_OBJECT = '"ffid": ""'
# The executor's values a function call keeps while it serialises its arguments: each thread's own.
PER_CALL = ("ctr", "expectReply")
# A thread's block of ids: an ipc's `i` after its bump, a pcall's `i + 1` and `i + 2` before its own.
ID_STEP = 4


class _Outbox(list):  # type: ignore[type-arg] - JSON payloads of any shape
    """The one outbound list: appended to by callers, drained by the loop's write."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def append(self, payload: Any) -> None:
        with self.lock:
            super().append(payload)

    def drain(self) -> list[Any]:
        with self.lock:
            taken = list(self)
            self.clear()
        return taken


class _Replies:
    """The replies calls wait for, and those whose caller stopped waiting (timed out, or Ctrl-C).
    JSPyBridge's loop hands each reply over through a barrier it waits at for 5 s; a reply
    nobody takes breaks it, and the loop thread dies of it: every later call times out. A late
    reply is taken here instead, by a thread of its own, and dropped."""

    def __init__(self, responses: dict[int, Any]) -> None:
        self.responses, self.late, self.guard = responses, set(), threading.Lock()

    def call(self, request_id: int) -> threading.Event:
        """What a call waits on: an event whose wait, given up, leaves its reply to be dropped."""
        replies = self

        class Waited(threading.Event):
            def wait(self, timeout: float | None = None) -> bool:
                try:
                    if super().wait(timeout):
                        return True
                except BaseException:
                    replies.give_up(request_id)
                    raise
                replies.give_up(request_id)
                return False

        return Waited()

    def give_up(self, request_id: int) -> None:
        with self.guard:
            arrived = self.responses.pop(request_id, None)  # in the moment between
            if arrived is None:
                self.late.add(request_id)
        if arrived is not None:
            _meet(arrived[1])

    def store(self, request_id: int, reply: tuple[Any, threading.Barrier]) -> bool:
        """Whether the reply is for a caller still waiting; a late one is met and dropped."""
        with self.guard:
            if request_id not in self.late:
                return True
            self.late.discard(request_id)
        _meet(reply[1])
        return False


def _meet(barrier: threading.Barrier) -> None:
    """Meets the loop at a reply's barrier in the caller's place, on a thread of its own."""
    def wait() -> None:
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass
    threading.Thread(target=wait, daemon=True, name="late-reply").start()


class _HandOver(threading.Barrier):
    """The barrier JSPyBridge's loop hands a reply over at, given up on without raising: a caller
    that comes after the loop's 5 s already holds its reply, and the loop goes on to the next one
    instead of dying of BrokenBarrierError (a caller held off the cores that long under load)."""

    def wait(self, timeout: float | None = None) -> int:
        try:
            return super().wait(timeout)
        except threading.BrokenBarrierError:
            return -1


class _LoopThreading:
    """`threading` as JSPyBridge's loop sees it: the same module, its Barrier the _HandOver."""

    Barrier = _HandOver

    def __getattr__(self, name: str) -> Any:
        return getattr(threading, name)


def _own(mine: threading.local, name: str) -> property:
    """An attribute each thread keeps for itself."""
    return property(lambda _: getattr(mine, name), lambda _, value: setattr(mine, name, value))


def make_thread_safe(config: ModuleType, connection: ModuleType, first_id: int) -> None:
    """Closes the races on JSPyBridge's running objects (`javascript.config` holds them,
    `javascript.connection` reads and writes Node's pipes); request ids start at `first_id`."""
    sys.modules[type(config.event_loop).__module__].threading = _LoopThreading()  # the loop's own module
    _own_ids(config.executor, first_id)
    outbox = _own_calls(config.event_loop)
    write = connection.writeAll

    def write_all(objs: list[Any]) -> None:
        write(objs.drain() if objs is outbox else objs)

    def read_all() -> list[Any]:
        items = connection.com_items  # never rebound from here on
        taken = items[:len(items)]
        del items[:len(taken)]  # the reading thread only appends: what was taken is the front
        return taken

    connection.writeAll, connection.readAll = write_all, read_all


def _own_ids(executor: Any, first_id: int) -> None:
    """Each thread's ids from its own blocks; its per-call values its own."""
    counter = itertools.count()  # next() on it is one step under the GIL: no two threads get one value
    mine = threading.local()

    def current(_: Any) -> int:
        if not hasattr(mine, "i"):
            bump(_, 0)
        return mine.i

    def bump(_: Any, __: int) -> None:  # `i += n`: this thread's next call ids are a block no one else has
        mine.i = first_id + ID_STEP * next(counter)

    executor.__class__ = type("ThreadSafeExecutor", (type(executor),), {
        "i": property(current, bump), **{name: _own(mine, name) for name in PER_CALL}})


def _own_calls(loop: Any) -> _Outbox:
    """Requests queued in one outbox after their replies are registered, late replies dropped."""
    outbox, early, replies = _Outbox(), {}, _Replies(loop.responses)

    class Responses(dict):  # type: ignore[type-arg] - the loop's own map, its late replies taken out
        def __setitem__(self, request_id: int, reply: Any) -> None:
            if replies.store(request_id, reply):
                super().__setitem__(request_id, reply)

    replies.responses = loop.responses = Responses(loop.responses)

    def queue_request(self: Any, request_id: int, payload: Any, timeout: float | None = None) -> threading.Event:
        lock = replies.call(request_id)
        self.requests[request_id] = [lock, timeout]  # before it is sent: its reply may come at once
        if isinstance(payload, str) and SENT_OBJECT in payload:  # Python objects sent: Node names them first
            early[request_id + 1] = self.requests[request_id + 1] = [replies.call(request_id + 1), timeout]
        outbox.append(payload)
        self.queue.put("send")
        return lock

    def await_response(self: Any, request_id: int, timeout: float | None = None) -> threading.Event:
        waited = early.pop(request_id, None)  # registered when its call was sent, answered or not
        return waited[0] if waited is not None else original_await(self, request_id, timeout)

    original_await = type(loop).await_response
    loop.__class__ = type("ThreadSafeEventLoop", (type(loop),), {
        "outbound": property(lambda self: outbox, lambda self, value: None),
        "queue_request": queue_request, "await_response": await_response})
    return outbox
