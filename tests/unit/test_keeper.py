"""BodyKeeper's bounds, with a fake session: how many tries, how long, and when it gives up at
once. The real rejoin, restart and respawn are in tests/integration/test_faults.py."""

from __future__ import annotations

import time
from typing import Any

import pytest

from agent.bridge import BridgeError, ConnectError
from agent.config.model import ReconnectSettings
from agent.planner.control import WorldLost
from agent.session.keeper import BodyKeeper


class GoneBot:
    connected = False
    ended_reason = "connection ended (socketClosed)"


class FakeLocal:
    def __init__(self, running: bool):
        self._running = running

    def running(self) -> bool:
        return self._running

    def ended_within(self, seconds: float) -> bool:
        return not self._running

    def ended_how(self) -> str:
        return "killed by signal 9"

    def restart(self) -> Any:
        raise AssertionError("not expected to restart")


class FakeSession:
    """A session whose bot is gone and whose joins are refused."""

    def __init__(self, local: FakeLocal | None = None):
        self.bot, self.local, self.joins = GoneBot(), local, []

    def join_again(self, timeout_s: float) -> None:
        self.joins.append(time.monotonic())
        raise ConnectError("no server is listening at 127.0.0.1:1", code="connection_refused")


def test_rejoining_stops_after_the_attempts_allowed_with_backoff() -> None:
    session = FakeSession()
    keeper = BodyKeeper(session, ReconnectSettings(attempts=3, total_s=30), lambda event: None)
    with pytest.raises(WorldLost, match=r"could not join again .*3 attempts allowed.*no server is listening"):
        keeper.after_step()
    assert len(session.joins) == 3
    waits = [b - a for a, b in zip(session.joins, session.joins[1:])]
    assert waits[0] >= 0.45 and waits[1] >= 0.95  # 0.5 s, then doubled


def test_rejoining_stops_at_the_total_seconds_whatever_the_attempts() -> None:
    session = FakeSession()
    keeper = BodyKeeper(session, ReconnectSettings(attempts=100, total_s=1.2), lambda event: None)
    started = time.monotonic()
    with pytest.raises(WorldLost):
        keeper.after_step()
    assert time.monotonic() - started < 1.2 + 0.3
    assert 2 <= len(session.joins) <= 3


def test_no_attempt_allowed_ends_at_once() -> None:
    session = FakeSession()
    with pytest.raises(WorldLost, match="reconnect.attempts is 0"):
        BodyKeeper(session, ReconnectSettings(attempts=0), lambda event: None).after_step()
    assert session.joins == []


def test_a_dead_local_server_without_restart_ends_at_once_naming_how_it_died() -> None:
    session = FakeSession(FakeLocal(running=False))
    keeper = BodyKeeper(session, ReconnectSettings(restart_server=False), lambda event: None)
    with pytest.raises(WorldLost, match=r"local server died \(killed by signal 9.*restart_server is off"):
        keeper.after_step()
    assert session.joins == []


def test_a_bot_that_does_not_answer_is_left_to_the_next_step() -> None:
    class SilentBot:
        connected = True

        def call(self, *args: Any, **kwargs: Any) -> None:
            raise BridgeError("bridge call failed: timeout", code="bridge")

    session = FakeSession()
    session.bot = SilentBot()
    assert BodyKeeper(session, ReconnectSettings(), lambda event: None).after_step() is None
