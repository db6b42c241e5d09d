"""mc-dig-stairs on the real server: up out of a 5-deep pit, and refusing to dig down into water."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.checks import evaluate
from agent.server import load_scenario
from support.world_body import Body, scenario_body


@pytest.fixture(scope="module")
def pit(toolbox) -> Iterator[Body]:
    yield from scenario_body("deep-pit", "stairmaker", toolbox)


@pytest.fixture(scope="module")
def fluids(toolbox) -> Iterator[Body]:
    yield from scenario_body("buried-fluids", "wary", toolbox)


def test_stairs_dug_up_the_pit_wall_lead_out_one_block_of_height_per_step(pit: Body) -> None:
    pit.ok("mc-move", blocks=1)  # to the pit's north cell (feet y=2), facing its wall
    start_y = pit.bot.state().position.y
    report = pit.ok("mc-dig-stairs", direction="up", steps=3)
    assert report["stop_reason"] == "completed" and report["steps"] == 3
    assert report["height_gained"] == pytest.approx(3, abs=0.01)
    assert pit.bot.state().position.y - start_y == pytest.approx(3, abs=0.01)  # measured afresh
    # the wall's grass and dirt, the stone ring over the first stair, the grass outside
    assert [d["block"] for d in report["dug"]] == ["grass_block", "dirt", "stone", "grass_block"]
    assert all(pit.bot.block_at(**d["position"]) == "air" for d in report["dug"])
    verdict = evaluate(pit.bot, load_scenario("deep-pit").success)
    assert verdict.holds, verdict.detail


def test_stairs_down_stop_before_letting_in_water(fluids: Body) -> None:
    fluids.ok("mc-look", facing="south", pitch=0)  # water lies under the grass at z=3, 3 below the feet
    result = fluids.call("mc-dig-stairs", direction="down", steps=3)
    assert not result.ok and result.code == "fluid_ahead", result.reason
    report = result.data
    assert report["steps"] == 2 and report["height_gained"] == pytest.approx(-2, abs=0.01)
    assert report["fluid"] == {"block": "water", "position": {"x": 0, "y": 2, "z": 3}, "forward": 1, "right": 0, "up": -1}
    assert fluids.bot.block_at(0, 3, 3) == "dirt"  # the block next to the water was not dug
    assert fluids.bot.block_at(0, 2, 3) == "water"
