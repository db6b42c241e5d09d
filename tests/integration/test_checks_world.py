"""Goal checks judged in a real world: what goal.js reads agrees with the scenario's geometry,
verdicts turn when the bot moves, a seeded scenario's check moves with its blocks, and `avoided`
remembers the way."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from agent.bridge import BotConnection, connect
from agent.checks import Verdict, evaluate, parse_check, start_the_way
from agent.goals import read_grounds
from agent.goals.grounds import Point
from agent.mc.transform import Transform
from agent.planner.domains import domain_values
from agent.server import LocalServer, Scenario, ServerSettings, load_scenario
from support.waiting import wait_for
from support.world_body import standing_in

# Feet at (0.5, 5, 0.5) on the grass, under a stone roof at y=8; a stone block 3 east.
ROOFED = Scenario.model_validate({
    "name": "roofed",
    "description": "a stone roof over the spawn, a stone block to the east, dirt in the pocket",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "boxes": [{"block": "stone", "from": [-1, 8, -1], "to": [1, 8, 1]}],
    "blocks": [{"block": "stone", "at": [3, 5, 0]}],
    "inventory": [{"name": "dirt", "count": 3}],
    "success": {"all": [{"sky_visible": True}, {"within": {"x": 0.5, "y": 5, "z": 6.5, "distance": 1}}]},
})


@pytest.fixture(scope="module")
def roofed() -> Iterator[BotConnection]:
    yield from standing_in(ROOFED, "judged")


def _judge(bot: BotConnection, data: dict[str, Any]) -> Verdict:
    return evaluate(bot, parse_check(data, "check"))


AT_SPAWN = [
    ({"sky_visible": True}, False, "sky_visible is false: stone at y=8, 2 blocks above the head"),
    ({"feet_y_at_least": 5}, True, "feet_y_at_least 5 holds: the feet are at y=5.00"),
    ({"feet_y_at_least": 6}, False, "feet_y_at_least 6 is false: the feet are at y=5.00"),
    ({"outside": {"from": [-1, 5, -1], "to": [1, 6, 1]}}, False,
     "outside x -1..1 y 5..6 z -1..1 is false: the feet block (0, 5, 0) is inside"),
    ({"within": {"x": 0.5, "y": 5, "z": 6.5, "distance": 2}}, False, "within 2 of (0.5, 5, 6.5) is false: 6.0 blocks away"),
    ({"standing_on_ground": True}, True, "standing_on_ground holds: the bot is on the ground"),
    ({"block_at": {"at": [3, 5, 0], "block": "stone"}}, True, "block_at (3, 5, 0) stone holds: stone there"),
    ({"block_at": {"at": [3, 5, 1], "block": "stone"}}, False, "block_at (3, 5, 1) stone is false: air there"),
    ({"has_item": {"name": "dirt", "count": 4}}, False, "has_item dirt 4 is false: 3 in the inventory"),
    # The stone block's centre is 3.04 blocks from the feet, the roof's nearest 3.5; no gold anywhere.
    ({"near_block": {"block": "stone", "distance": 3.1}}, True, "near_block stone 3.1 holds: stone 3.0 blocks from the feet"),
    ({"near_block": {"block": "stone"}}, False, "near_block stone 2 is false: no stone within 2 blocks of the feet"),
    ({"near_block": {"block": "gold_block", "distance": 16}}, False,
     "near_block gold_block 16 is false: no gold_block within 16 blocks of the feet"),
    # A wall of four stone blocks begun with the one stone block there: a quarter built.
    ({"blueprint": {"anchor": [3, 5, 0], "blocks": [{"at": [0, 0, 0], "block": "stone"}, {"at": [0, 1, 0], "block": "stone"},
                                                  {"at": [1, 0, 0], "block": "stone"}, {"at": [1, 1, 0], "block": "stone"}]}},
     False, "blueprint of 4 cells at (3, 5, 0) is false: 1 of 4 cells right (25 %); (3, 6, 0) holds air, not stone; "
            "(4, 5, 0) holds air, not stone; (4, 6, 0) holds air, not stone"),
    ({"blueprint": {"anchor": [3, 5, 0], "blocks": [{"at": [0, 0, 0], "block": "stone"}]}}, True,
     "blueprint of 1 cells at (3, 5, 0) holds: 1 of 1 cells right (100 %)"),
    ({"all": [{"standing_on_ground": True}, {"sky_visible": True}]}, False,
     "not all hold: sky_visible is false: stone at y=8, 2 blocks above the head"),
    ({"not": {"sky_visible": True}}, True, "not(sky_visible) holds: sky_visible is false: stone at y=8, 2 blocks above the head"),
    ({"any": [{"feet_y_at_least": 9}, {"not": {"standing_on_ground": True}}]}, False,
     "none holds: feet_y_at_least 9 is false: the feet are at y=5.00; "
     "(not(standing_on_ground) is false: standing_on_ground holds: the bot is on the ground)"),
]


def test_checks_at_the_spawn_say_what_the_world_says(roofed: BotConnection) -> None:
    # the scenario's inventory is given just after the join
    assert wait_for(lambda: _judge(roofed, {"has_item": {"name": "dirt", "count": 3}}).holds)
    for data, holds, detail in AT_SPAWN:
        assert _judge(roofed, data) == Verdict(holds=holds, detail=detail), data


def test_the_success_check_turns_true_once_the_bot_walks_out_from_under_the_roof(roofed: BotConnection) -> None:
    assert ROOFED.success is not None
    before = evaluate(roofed, ROOFED.success)
    assert not before.holds and before.detail.startswith("not all hold: sky_visible is false: stone at y=8")
    walked = roofed.call("goto", {"x": 0.5, "y": 5, "z": 6.5, "range": 0, "timeout_s": 30, "allow_dig": False,
                                  "allow_build": False, "max_drop": 3}, timeout_s=30)
    assert walked["reached"], walked
    assert wait_for(lambda: roofed.state().on_ground)
    after = evaluate(roofed, ROOFED.success)
    assert after.holds and after.detail.startswith("sky_visible holds: nothing opaque above the head; within 1 of (0.5, 5, 6.5) holds: 0.")
    outside = _judge(roofed, {"outside": {"from": [-1, 5, -1], "to": [1, 6, 1]}})
    assert outside == Verdict(holds=True, detail="outside x -1..1 y 5..6 z -1..1 holds: the feet block (0, 5, 6) is outside")


def test_a_check_on_a_bot_that_left_is_never_a_success(roofed: BotConnection) -> None:
    with connect(port=roofed.port, username="leaving") as gone:
        pass
    assert evaluate(gone, parse_check({"standing_on_ground": True}, "c")) == Verdict(
        holds=False, detail="cannot check: bot connection was closed"
    )


def test_a_seeded_pit_is_judged_where_its_blocks_went() -> None:
    """Seed 5 turns the pit once and mirrors it: its staircase, spawn and check all move."""
    pit = load_scenario("pit")
    seed = 5
    t = Transform.for_seed(seed, pit.spawn.x, pit.spawn.z)
    assert t.quarter_turns == 1 and t.mirror
    varied = pit.transformed(seed)
    assert varied.success is not None
    corner = parse_check({"block_at": {"at": [1, 4, 1], "block": "air"}}, "c")  # the pit's south-east top corner
    with LocalServer(ServerSettings(), scenario=varied) as info, connect(port=info.port, username="climber") as bot:
        assert wait_for(lambda: bot.state().on_ground)
        assert evaluate(bot, corner.transformed(t)) == Verdict(holds=True, detail="block_at (0, 4, 2) air holds: air there")
        assert evaluate(bot, corner) == Verdict(holds=False, detail="block_at (1, 4, 1) air is false: grass_block there")
        bottom = evaluate(bot, varied.success)
        assert bottom == Verdict(holds=False, detail="not all hold: feet_y_at_least 5 is false: the feet are at y=2.00")
        x, y, z = t.point(3.5, 5, 0.5)  # the grass east of the pit, where the file's stairs lead
        mark = bot.events.last_seq
        bot.chat(f"/tp {x} {y} {z}")
        bot.events.wait_for("forcedMove", timeout_s=5, after=mark)
        out = wait_for(lambda: (v := evaluate(bot, varied.success)).holds and v)
        assert out == Verdict(holds=True, detail="feet_y_at_least 5 holds: the feet are at y=5.00; standing_on_ground holds: the bot is on the ground")


def test_avoided_reads_the_way_so_a_bot_out_of_the_lava_again_has_still_been_in_it() -> None:
    """The hazard scenario's success is the spot past the lava, never having been in the lava: a
    bot put into the lava and then onto that spot has reached the place but not the goal, even
    after it joins again (a rejoin makes a new bot), until a new run starts its way."""
    hazard = load_scenario("hazard")
    assert hazard.success is not None
    with LocalServer(ServerSettings(), scenario=hazard) as info:
        with connect(port=info.port, username="burned") as bot:
            assert wait_for(lambda: bot.state().on_ground)
            clean = _judge(bot, {"avoided": ["lava", "fire"]})
            assert clean == Verdict(holds=True, detail="avoided lava and fire holds: not in lava or fire since the run began")
            bot.chat("/tp 0.5 4 3.5")  # into the lava block set in the ground, 3 blocks south
            assert wait_for(lambda: not _judge(bot, {"avoided": "lava"}).holds, timeout_s=5)
            mark = bot.events.last_seq
            bot.chat("/tp 0.5 5 6.5")  # out again, onto the spot the check asks for
            bot.events.wait_for("forcedMove", timeout_s=5, after=mark)
            assert wait_for(lambda: bot.state().on_ground and bot.state().position.z > 6)
            assert evaluate(bot, hazard.success) == Verdict(
                holds=False, detail="not all hold: avoided lava is false: was in lava at (0, 4, 3)", lost=True)
        with connect(port=info.port, username="burned") as again:
            assert wait_for(lambda: again.state().on_ground)
            burned = "avoided lava is false: was in lava at (0, 4, 3)"
            assert _judge(again, {"avoided": "lava"}) == Verdict(holds=False, detail=burned, lost=True)
            start_the_way(again)  # what a run does as it begins
            assert _judge(again, {"avoided": "lava"}).holds


def test_near_block_with_a_name_no_block_has_says_so(roofed: BotConnection) -> None:
    verdict = _judge(roofed, {"near_block": {"block": "goldblock"}})
    assert not verdict.holds and "unknown block 'goldblock'" in verdict.detail


def test_the_places_a_walk_may_take_are_the_nearest_block_of_each_kind_and_the_start(roofed: BotConnection) -> None:
    grounds = read_grounds(roofed)
    assert grounds is not None
    stone = next(b for b in grounds.blocks if b.name == "stone")
    cell = [int(stone.at.x), int(stone.at.y), int(stone.at.z)]
    assert _judge(roofed, {"block_at": {"at": cell, "block": "stone"}}).holds
    centre = Point(x=stone.at.x + 0.5, y=stone.at.y + 0.5, z=stone.at.z + 0.5)
    feet = grounds.feet
    assert abs(((centre.x - feet.x) ** 2 + (centre.y - feet.y) ** 2 + (centre.z - feet.z) ** 2) ** 0.5
               - stone.distance) < 1e-6
    places = domain_values(grounds, start=feet)["place"]
    assert places[0] == feet.model_dump() and stone.at.model_dump() in places


def test_in_a_pit_the_ground_just_past_its_rim_is_a_place_to_go() -> None:
    with LocalServer(ServerSettings(), scenario=load_scenario("deep-pit")) as info:
        with connect(port=info.port, username="pitted") as bot:
            assert wait_for(lambda: bot.state().on_ground)
            grounds = read_grounds(bot)
    assert grounds is not None and grounds.ground_y == 5
    assert (grounds.hole.from_, grounds.hole.to) == ((-2, -2), (2, 2))  # the pit and its stone ring
    beside = grounds.beside_hole()
    assert beside is not None and beside.y == 5 and 3 in (abs(math.floor(beside.x)), abs(math.floor(beside.z)))
