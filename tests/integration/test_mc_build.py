"""mc-build on the real server: a wall laid out ahead of the bot is placed from the inventory
and read back, and the blueprint check over the same cells agrees; a blueprint with more cells
than the inventory has blocks for ends incomplete, its share, its missing cells and the blocks
it was short of said."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.checks import evaluate
from agent.checks.model import Blueprint
from agent.server import Scenario
from agent.tools import Toolbox
from agent.world.blueprints import shape_plan
from support.waiting import wait_for
from support.world_body import Body, scenario_body

# Superflat grass at y=4, feet at (0.5, 5, 0.5) facing south, 8 dirt to build with.
YARD = Scenario.model_validate({
    "name": "yard", "description": "an empty field and 8 dirt",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "inventory": [{"name": "dirt", "count": 8}],
})


@pytest.fixture(scope="module")
def builder(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(YARD, "builder", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        assert wait_for(lambda: any(i["name"] == "dirt" for i in body.ok("mc-inventory")["items"]))
        body.ok("mc-look", facing="south", pitch=0)
        yield body


def test_a_wall_is_built_ahead_and_the_blueprint_check_agrees(builder: Body) -> None:
    report = builder.ok("mc-build", shape="wall", block="dirt", length=3, height=2, forward=2)
    assert (report["right"], report["cells"], report["share"], report["placed"]) == (6, 6, 1.0, 6)
    wall = shape_plan("wall", "dirt", (0, 5, 0), "south", forward=2, length=3, height=2)
    assert {cell for cell, _ in wall.cells()} == {(x, y, 2) for x in (-1, 0, 1) for y in (5, 6)}
    verdict = evaluate(builder.bot, Blueprint(blueprint=wall))
    assert verdict.holds and verdict.detail.endswith("6 of 6 cells right (100 %)")


def test_more_cells_than_blocks_ends_incomplete_with_the_share_and_what_is_missing(builder: Body) -> None:
    pillar = [{"at": [0, up, 0], "block": "dirt"} for up in range(3)]  # 2 dirt are left
    result = builder.call("mc-build", anchor=[4, 5, 0], blocks=pillar)
    assert not result.ok and result.code == "incomplete"
    assert (result.data["right"], result.data["cells"]) == (2, 3)
    assert [(m["y"], m["reason"]) for m in result.data["missing"]] == [(7, "no dirt in the inventory")]
    assert result.data["short"] == {"dirt": 1}
    assert "2 of 3 cells right (67%)" in result.reason and "short of 1 dirt" in result.reason


def test_a_build_without_a_shape_or_a_blueprint_is_refused(builder: Body) -> None:
    result = builder.call("mc-build", block="dirt")
    assert result.code == "bad_args" and "give a shape with its block, or a blueprint" in result.reason
