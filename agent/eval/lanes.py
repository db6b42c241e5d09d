"""Lanes: numbers 0..N-1 for the episodes in flight, N the workers. An episode takes the lowest
free lane when it starts and gives it back when it ends, so at any moment the running episodes
hold distinct lanes. Workers that share a llama-server with as many slots each keep a slot of
their own (the lane, spec.on_lane), and with it the KV cache of their own prompt."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Lanes:
    def __init__(self, count: int):
        self._free = set(range(count))
        self._lock = threading.Lock()

    def take(self) -> int:
        with self._lock:
            if not self._free:
                raise RuntimeError("no free lane: more episodes in flight than workers")
            lane = min(self._free)
            self._free.discard(lane)
            return lane

    def give_back(self, lane: int) -> None:
        with self._lock:
            self._free.add(lane)

    @contextmanager
    def held(self) -> Iterator[int]:
        lane = self.take()
        try:
            yield lane
        finally:
            self.give_back(lane)
