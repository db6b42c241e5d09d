"""mc-tunnel on the real server: out of a sealed room through its plank wall, and refusing lava."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from agent.checks import evaluate
from agent.server import load_scenario
from support.world_body import Body, scenario_body


@pytest.fixture(scope="module")
def sealed(toolbox) -> Iterator[Body]:
    yield from scenario_body("sealed", "mole", toolbox)


@pytest.fixture(scope="module")
def fluids(toolbox) -> Iterator[Body]:
    yield from scenario_body("buried-fluids", "careful", toolbox)


def test_a_sealed_room_is_left_by_tunnelling_through_its_wall(sealed: Body) -> None:
    # facing north from the room's middle (z=0): two free cells, the wall at z=-3, then outside
    report = sealed.ok("mc-tunnel", blocks=4)
    assert report["stop_reason"] == "completed" and report["steps"] == 4
    assert [(d["block"], d["position"], d["forward"], d["up"]) for d in report["dug"]] == [
        ("oak_planks", {"x": 0, "y": 6, "z": -3}, 1, 1),
        ("oak_planks", {"x": 0, "y": 5, "z": -3}, 1, 0),
    ]
    assert report["blocks_dug"] == 2
    assert [sealed.bot.block_at(0, y, -3) for y in (5, 6)] == ["air", "air"]  # really gone
    feet = sealed.bot.state().position
    assert (math.floor(feet.x), math.floor(feet.y), math.floor(feet.z)) == (0, 5, -4)
    assert report["distance"] == pytest.approx(4, abs=0.1)
    verdict = evaluate(sealed.bot, load_scenario("sealed").success)
    assert verdict.holds, verdict.detail


def test_tunnel_refuses_to_open_the_wall_onto_lava(fluids: Body) -> None:
    # facing north: one free cell, the dirt wall at z=-2 and z=-3, lava behind it at z=-4
    result = fluids.call("mc-tunnel", blocks=4)
    assert not result.ok and result.code == "fluid_ahead", result.reason
    report = result.data
    assert (report["steps"], report["blocks_dug"]) == (2, 2)
    assert report["fluid"] == {"block": "lava", "position": {"x": 0, "y": 6, "z": -4}, "forward": 2, "right": 0, "up": 1}
    assert [fluids.bot.block_at(0, y, -3) for y in (5, 6)] == ["dirt", "dirt"]  # the last layer stands
    assert math.floor(fluids.bot.state().position.z) == -2
