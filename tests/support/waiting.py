"""Polling until something holds, for tests that watch the world change."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(predicate: Callable[[], T], timeout_s: float = 5.0, every_s: float = 0.05) -> T:
    """Polls `predicate` until it returns something truthy or `timeout_s` passes; returns its last value."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(every_s)
    return predicate()
