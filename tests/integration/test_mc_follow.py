"""mc-follow on the real server: a second bot walks 12 blocks away while the first follows it,
and the distance it kept, sampled as it went, stays near the one asked for; a player not in
view fails not_found."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from agent.bridge import connect
from agent.checks import evaluate, parse_check
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body


@pytest.fixture(scope="module")
def follower(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body("flat", "follower", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        yield body


def test_the_follower_keeps_its_distance_while_the_player_walks_away(follower: Body) -> None:
    with connect(port=follower.bot.port, username="leader") as leader:
        assert wait_for(lambda: leader.state().on_ground)
        walked: dict = {}
        walk = threading.Thread(target=lambda: walked.update(leader.call(
            "goto", {"x": 0.5, "y": 5, "z": 12.5, "range": 0, "timeout_s": 30, "allow_dig": False, "allow_build": False,
                     "max_drop": 3}, timeout_s=30)))
        walk.start()
        report = follower.ok("mc-follow", player="leader", distance=2, seconds=8)
        walk.join(timeout=30)
        near = evaluate(follower.bot, parse_check({"near_player": {"name": "leader", "distance": 6}}, "c"))
        assert near.holds, near.detail
        gone = evaluate(follower.bot, parse_check({"near_player": {"name": "nobody"}}, "c"))
        assert not gone.holds and "nobody is not in view" in gone.detail
    assert walked.get("reached"), walked
    assert report["stop_reason"] == "completed" and report["samples"] >= 20
    assert report["end"]["z"] >= 8  # it came along: the leader ended 12 blocks south of the spawn
    assert report["end_distance"] <= 3.5 and report["median_distance"] <= 4
    assert report["max_distance"] <= 6


def test_a_player_not_in_view_fails_not_found(follower: Body) -> None:
    result = follower.call("mc-follow", player="nobody", seconds=1)
    assert result.code == "not_found" and "player 'nobody' is not in view" in result.reason
