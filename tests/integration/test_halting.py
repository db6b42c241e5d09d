"""Stopping a tool that works in steps (bridge/helpers/stepwise.js): the bot's `halt` (the
`stop` action, sent by `!stop` in chat and by a call the caller gave up on) ends mc-collect and
mc-follow before their next step, with stop_reason `stopped`, instead of at their own end."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from agent.bridge import connect
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body


@pytest.fixture(scope="module")
def grove(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body("grove", "halter", toolbox):  # two oaks of three logs, a birch
        assert wait_for(lambda: body.bot.state().on_ground)
        yield body


def _logs(body: Body) -> int:
    return sum(i["count"] for i in body.bot.call("inventory")["items"] if i["name"].endswith("_log"))


def test_a_collect_halted_after_its_first_log_stops_before_the_next(grove: Body) -> None:
    result: dict = {}
    work = threading.Thread(target=lambda: result.update(r=grove.call("mc-collect", block="oak_log", count=6, timeout_s=120)))
    work.start()
    assert wait_for(lambda: _logs(grove) >= 1, timeout_s=30)
    halted_at = time.monotonic()
    grove.bot.halt()
    work.join(timeout=30)
    stopped = result["r"]
    assert stopped.code == "stopped" and stopped.data["stop_reason"] == "stopped"
    assert 1 <= stopped.data["blocks_dug"] < 6
    assert time.monotonic() - halted_at < 15  # one step's end at most, not the whole call's 120 s


def test_a_follow_halted_stops_at_once(grove: Body) -> None:
    with connect(port=grove.bot.port, username="leader") as leader:
        assert wait_for(lambda: leader.state().on_ground)
        result: dict = {}
        work = threading.Thread(target=lambda: result.update(r=grove.call("mc-follow", player="leader", seconds=60)))
        work.start()
        time.sleep(2)
        halted_at = time.monotonic()
        grove.bot.halt()
        work.join(timeout=10)
        assert result["r"].code == "stopped" and "asked to stop" in result["r"].reason
        assert time.monotonic() - halted_at < 2
