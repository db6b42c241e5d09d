"""mc-pillar-up on the real server: out of a 5-deep pit by building, and running out of blocks."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from agent.checks import evaluate
from agent.server import load_scenario
from support.world_body import Body, scenario_body

# deep-pit: a 3x3 pit, floor top at y=1 (feet y=2), rim at y=6 (a 2-high stone ring around it).
PIT_FEET_Y, RIM_FEET_Y = 2, 7


@pytest.fixture(scope="module")
def pit(toolbox) -> Iterator[Body]:
    yield from scenario_body("deep-pit", "climber", toolbox)


def test_a_five_deep_pit_is_escaped_by_pillaring_then_walking_off(pit: Body) -> None:
    pit.ok("mc-move", blocks=1)  # from the pit's middle to its north cell, against the wall
    climbed = pit.ok("mc-pillar-up", blocks=5)
    assert climbed["stop_reason"] == "completed" and climbed["steps"] == 5
    assert (climbed["item"], climbed["blocks_used"], climbed["blocks_left"]) == ("dirt", 5, 11)
    assert climbed["height_gained"] == pytest.approx(RIM_FEET_Y - PIT_FEET_Y, abs=0.01)
    state = pit.bot.state()
    feet = state.position
    assert feet.y == pytest.approx(RIM_FEET_Y, abs=0.01)  # measured afresh, not taken from the report
    assert state.facing == "north"  # looking down to place turned the head; it is turned back
    column = (math.floor(feet.x), math.floor(feet.z))
    assert [pit.bot.block_at(column[0], y, column[1]) for y in range(PIT_FEET_Y, RIM_FEET_Y)] == ["dirt"] * 5
    pit.ok("mc-goto", x=0.5, y=5, z=-4.5, range=0.5)  # over the ring's top and down onto the grass
    verdict = evaluate(pit.bot, load_scenario("deep-pit").success)
    assert verdict.holds, verdict.detail


def test_pillaring_stops_with_no_blocks_when_the_dirt_runs_out(pit: Body) -> None:
    start_y = pit.bot.state().position.y
    result = pit.call("mc-pillar-up", blocks=12)  # 11 dirt left from the climb out
    assert not result.ok and result.code == "no_blocks", result.reason
    report = result.data
    assert (report["steps"], report["blocks_used"], report["blocks_left"]) == (11, 11, 0)
    assert pit.bot.state().position.y - start_y == pytest.approx(11, abs=0.01) == report["height_gained"]
    again = pit.call("mc-pillar-up")
    assert again.code == "no_blocks" and again.data["steps"] == 0 and again.data["item"] is None
    assert again.data["height_gained"] == 0
