"""Bot events arriving from Node, kept in order so callers can wait for one."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from agent.bridge.errors import BridgeError
from agent.bridge.models import BotEvent

# Events kept per connection; older ones are dropped (chat can be chatty).
EVENTS_KEPT = 1000


class EventLog:
    """Thread-safe, bounded, ordered log of BotEvents with blocking waits."""

    def __init__(self) -> None:
        self._events: deque[BotEvent] = deque(maxlen=EVENTS_KEPT)
        self._cond = threading.Condition()
        self._seq = 0
        self._listeners: list[Callable[[BotEvent], None]] = []

    @property
    def last_seq(self) -> int:
        """Sequence number of the newest event (0 before any): pass it as `after` to wait for newer ones."""
        return self._seq

    def subscribe(self, listener: Callable[[BotEvent], None]) -> Callable[[], None]:
        """Calls `listener` for each new event, on the bridge's callback thread: keep it quick.
        Returns what stops it (a session serving many runs must not keep each run's listeners)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def push(self, event: BotEvent) -> BotEvent:
        with self._cond:
            self._seq += 1
            event = event.model_copy(update={"seq": self._seq})
            self._events.append(event)
            self._cond.notify_all()
        for listener in self._listeners:
            listener(event)
        return event

    def events(self, after: int = 0) -> list[BotEvent]:
        with self._cond:
            return [e for e in self._events if e.seq > after]

    def wait_for(
        self,
        kind: str,
        *,
        timeout_s: float,
        after: int = 0,
        match: Callable[[BotEvent], bool] = lambda e: True,
    ) -> BotEvent:
        """The first event of `kind` newer than `after` that `match`es; BridgeError after `timeout_s`."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while True:
                for e in self._events:
                    if e.seq > after and e.kind == kind and match(e):
                        return e
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BridgeError(f"no '{kind}' event within {timeout_s:g} s", code="timeout")
                self._cond.wait(left)
