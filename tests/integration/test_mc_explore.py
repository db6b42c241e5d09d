"""mc-explore on the real server: it finds its way out of places it has never seen, and the
world, not the tool, says whether it got out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.checks import evaluate
from agent.server import load_scenario
from support.waiting import wait_for
from support.world_body import Body, scenario_body


@pytest.fixture(scope="module")
def two_rooms(toolbox) -> Iterator[Body]:
    yield from scenario_body("two-rooms", "roamer", toolbox)


def test_explore_leaves_the_two_rooms_and_the_world_agrees(two_rooms: Body) -> None:
    result = two_rooms.call("mc-explore")
    assert result.ok, result.reason
    report = result.data
    assert report["stop_reason"] == "goal_reached"
    assert evaluate(two_rooms.bot, load_scenario("two-rooms").success).holds
    # out through the doorway in the second room's south wall (x=7, z=3): it passed both rooms
    assert report["end"]["z"] > 3 and report["legs"], report
    assert 0 < report["blocks_walked"] < 64


def test_explore_in_the_open_is_done_at_once(two_rooms: Body) -> None:
    result = two_rooms.call("mc-explore")
    assert result.ok and result.data["legs"] == [] and result.data["blocks_walked"] == 0


def test_a_check_argument_replaces_the_default_and_bad_ones_are_one_line(two_rooms: Body) -> None:
    bad = two_rooms.call("mc-explore", check={"sky_visibel": True})
    assert not bad.ok and bad.code == "bad_args" and "unknown predicate 'sky_visibel'" in bad.reason
    unreachable = two_rooms.call("mc-explore", check={"feet_y_at_least": 200}, max_seconds=30, climbs=0)
    assert not unreachable.ok and unreachable.code in ("stuck", "timeout")
    assert "feet_y_at_least 200 is false" in unreachable.data["verdict"]


@pytest.mark.parametrize("name", ["step-up", "drop", "lava-path"])
def test_explore_gets_out_of_terrain_it_must_climb_drop_or_go_around(toolbox, name: str) -> None:
    for body in scenario_body(name, "pathfinder", toolbox):
        result = body.call("mc-explore")
        assert result.ok, result.reason
        assert evaluate(body.bot, load_scenario(name).success).holds
        assert body.bot.state().health == 20, "it walked into lava or fell too far"


def test_with_allow_dig_explore_digs_out_of_a_sealed_room_and_without_it_says_stuck(toolbox) -> None:
    sealed = load_scenario("sealed")
    for body in scenario_body("sealed", "digger", toolbox):
        stuck = body.call("mc-explore", check=sealed.success.as_data(), climbs=0)
        assert not stuck.ok and stuck.code == "stuck" and stuck.data["legs"] == []
        result = body.call("mc-explore", check=sealed.success.as_data(), climbs=0, allow_dig=True)
        assert result.ok, result.reason
        assert [leg["why"] for leg in result.data["legs"]][:1] == ["beyond_wall"]
        assert evaluate(body.bot, sealed.success).holds


def test_a_goal_that_can_no_longer_hold_stops_explore_at_once(toolbox) -> None:
    """In the hazard scenario, once the bot has been in the lava, no place satisfies `avoided:
    lava` again: mc-explore says so without walking a block."""
    hazard = load_scenario("hazard")
    for body in scenario_body("hazard", "scorched", toolbox):
        body.bot.chat("/tp 0.5 4 3.5")  # set-up: into the lava block set in the ground
        assert wait_for(lambda: not evaluate(body.bot, hazard.success).holds and evaluate(body.bot, hazard.success).lost)
        body.teleport(0.5, 5, 0.5, "south")  # back at the spawn, unharmed enough to walk
        lost = body.call("mc-explore", check=hazard.success.as_data())
        assert (lost.status, lost.code, lost.data["stop_reason"]) == ("failed", "goal_lost", "goal_lost")
        assert lost.data["legs"] == [] and "avoided lava is false: was in lava at (0, 4, 3)" in lost.reason
