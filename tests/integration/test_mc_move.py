"""mc-move on the real server: holding keys, and grid steps that read the blocks ahead,
climbing a one-block step, walking down a drop, and stopping before a deep drop, lava or a wall."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from support.world_body import Body, scenario_body

# A grid step ends this close (blocks, horizontally) to the centre it aimed at.
AT_CENTRE = 0.1


@pytest.fixture(scope="module")
def step_up(toolbox) -> Iterator[Body]:
    yield from scenario_body("step-up", "climber", toolbox)


@pytest.fixture(scope="module")
def drop(toolbox) -> Iterator[Body]:
    yield from scenario_body("drop", "dropper", toolbox)


@pytest.fixture(scope="module")
def ledge(toolbox) -> Iterator[Body]:
    yield from scenario_body("ledge", "edgy", toolbox)


@pytest.fixture(scope="module")
def field(toolbox) -> Iterator[Body]:
    """Flat ground with lava set into it 3 blocks south of the spawn."""
    yield from scenario_body("hazard", "careful", toolbox)


def _at(report: dict, x: float, y: float, z: float) -> bool:
    end = report["end"]
    return math.hypot(end["x"] - x, end["z"] - z) < AT_CENTRE and abs(end["y"] - y) < 0.01


def test_a_one_block_step_is_seen_and_climbed(step_up: Body) -> None:
    step_up.teleport(0.5, 5, -4.5, "north")  # the floor steps up at z=-6
    seen = step_up.call("mc-observe-blocks")
    assert seen.data["step_up_ahead"] is True and "step up ahead" in seen.value
    step_up.teleport(0.5, 5, -3.5, "north")
    moved = step_up.ok("mc-move", blocks=3)  # z=-5 level, z=-6 up one, z=-7 level
    assert moved["stop_reason"] == "completed" and _at(moved, 0.5, 6, -6.5), moved
    assert moved["facing"] == "north" and moved["block"] is None and moved["distance"] is None


def test_a_wall_two_high_stops_a_walk_as_collision_before_it(step_up: Body) -> None:
    step_up.teleport(0.5, 5, 0.5, "south")  # the corridor's closed end is the next block
    seen = step_up.call("mc-observe-blocks")
    assert seen.data["step_up_ahead"] is False and "blocked ahead" in seen.value
    result = step_up.call("mc-move", blocks=3)
    assert not result.ok and result.code == "collision"
    assert (result.data["block"], result.data["distance"]) == ("stone", 1)
    assert _at(result.data, 0.5, 5, 0.5), result.data


def test_holding_forward_into_a_wall_reports_collision_with_near_zero_displacement(step_up: Body) -> None:
    step_up.teleport(0.5, 5, 0.5, "south")
    result = step_up.call("mc-move", forward=True, duration=1.0)
    assert not result.ok and result.code == "collision"
    d = result.data["displacement"]
    assert math.hypot(d["x"], d["z"]) < 0.3
    assert result.data["stop_reason"] == "collision"


def test_a_two_block_drop_is_walked_down_to_the_block_centre(drop: Body) -> None:
    drop.teleport(0.5, 7, -3.5, "north")  # the raised floor ends at z=-4; z=-5 is 2 lower
    assert "drop 2 ahead" in drop.call("mc-observe-blocks").value
    drop.teleport(0.5, 7, -1.5, "north")  # z=-3, z=-4, then down to z=-5
    moved = drop.ok("mc-move", blocks=3)
    assert moved["stop_reason"] == "completed" and _at(moved, 0.5, 5, -4.5), {k: moved[k] for k in ("end", "target", "fall_distance")}
    assert moved["fall_distance"] == pytest.approx(2, abs=0.3)


def test_a_four_block_drop_is_refused_on_the_edge_unless_max_drop_allows_it(ledge: Body) -> None:
    ledge.teleport(0.5, 9, 0.5, "south")  # the platform ends at z=2; z=3 is 4 lower
    result = ledge.call("mc-move", blocks=5)
    assert not result.ok and result.code == "drop_ahead"
    report = result.data
    assert (report["block"], report["distance"], report["depth"]) == (None, 3, 4)
    assert _at(report, 0.5, 9, 2.5), report  # on the last block of the platform
    assert "stopped before a 4-block drop 3 blocks from the start" in result.reason
    seen = ledge.call("mc-observe-blocks")
    assert seen.data["drop_ahead"] == 4 and "drop 4 ahead" in seen.value
    down = ledge.ok("mc-move", blocks=1, max_drop=4)
    assert _at(down, 0.5, 5, 3.5), down


def test_lava_ahead_is_refused_before_it(field: Body) -> None:
    field.teleport(0.5, 5, 0.5, "south")
    result = field.call("mc-move", blocks=5)
    assert not result.ok and result.code == "hazard_ahead"
    assert (result.data["block"], result.data["distance"], result.data["depth"]) == ("lava", 3, None)
    assert _at(result.data, 0.5, 5, 2.5), result.data
    assert "stopped before lava 3 blocks from the start" in result.reason


def test_move_in_the_open_reports_what_a_fresh_status_reads(field: Body) -> None:
    field.teleport(0.5, 5, 0.5, "north")  # away from the lava
    moved = field.ok("mc-move", forward=True, duration=1.0)
    status = field.ok("mc-status")
    end, now = moved["end"], status["position"]
    assert math.dist((end["x"], end["y"], end["z"]), (now["x"], now["y"], now["z"])) < 0.05
    assert moved["displacement"]["z"] < -3.0 and abs(moved["displacement"]["x"]) < 0.05
    assert moved["stop_reason"] == "completed" and status["vertical_state"] == "stable"


def test_blocks_3_ends_at_the_centre_of_the_block_3_ahead(field: Body) -> None:
    field.teleport(0.5, 5, 0.5, "west")
    moved = field.ok("mc-move", blocks=3)
    assert _at(moved, -2.5, 5, 0.5), moved
    assert moved["facing"] == "west" and moved["target"] == {"x": -2.5, "y": 5, "z": 0.5}


def test_max_drop_goes_with_blocks_only_and_within_its_range(field: Body) -> None:
    alone = field.call("mc-move", forward=True, duration=0.5, max_drop=2)
    assert not alone.ok and alone.code == "bad_args" and "max_drop goes with blocks" in alone.reason
    too_deep = field.call("mc-move", blocks=1, max_drop=20)
    assert not too_deep.ok and too_deep.code == "bad_args" and "max_drop" in too_deep.reason


def test_mc_stop_releases_the_keys_and_reports_where_the_bot_faces(field: Body) -> None:
    field.ok("mc-look", facing="east")
    stopped = field.ok("mc-stop")
    assert stopped["released"] and stopped["facing"] == "east" and abs(stopped["yaw_deg"] + 90) < 0.5
