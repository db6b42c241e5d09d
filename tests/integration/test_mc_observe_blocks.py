"""mc-observe-blocks on the real server: the room read at every facing and from outside its
doorway, and a hazard found at its egocentric offset, each checked against the scenario's geometry."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from support.world_body import Body, scenario_body

FACINGS = ["north", "east", "south", "west"]


@pytest.fixture(scope="module")
def hazard(toolbox) -> Iterator[Body]:
    """Flat ground with lava set into it 3 blocks south of the spawn."""
    yield from scenario_body("hazard", "careful", toolbox)


def _sides(facing: str) -> list[str]:
    """The world direction of forward, back, left and right for a facing."""
    i = FACINGS.index(facing)
    return [FACINGS[i], FACINGS[(i + 2) % 4], FACINGS[(i + 3) % 4], FACINGS[(i + 1) % 4]]


@pytest.mark.parametrize("facing", FACINGS)
def test_room_observation_matches_the_geometry_at_every_facing(room: Body, facing: str) -> None:
    room.teleport(0.5, 5, 0.5, facing)
    seen = room.ok("mc-observe-blocks", radius=4)
    feet = (0, 5, 0)
    assert seen["facing"] == facing
    assert seen["free"] == room.world.free(feet, facing, 4)
    assert seen["footing_ahead"] == room.world.block(*room.world.at(feet, facing, 1, 0, -1))
    assert seen["sky_visible"] is False and seen["open_terrain"] is False
    # the doorway is in the north wall: only the way north is open past the walls
    assert [d for d in ("forward", "back", "left", "right") if seen["free"][d] == 4] == [
        d for d, f in zip(("forward", "back", "left", "right"), _sides(facing)) if f == "north"
    ]


def test_outside_the_doorway_the_sky_is_visible_and_the_way_free(room: Body) -> None:
    room.teleport(0.5, 5, 0.5, "north")
    moved = room.ok("mc-move", blocks=5)  # three blocks of room, the doorway, one outside
    assert math.floor(moved["end"]["z"]) == -5
    seen = room.ok("mc-observe-blocks")
    assert seen["sky_visible"] is True
    assert seen["free"] == room.world.free((0, 5, -5), "north", 4)


def test_hazard_scenario_finds_the_lava_at_its_offset(hazard: Body) -> None:
    seen = hazard.ok("mc-observe-blocks", radius=4)
    lava = [h for h in seen["hazards"] if h["kind"] == "lava"]
    assert [(h["forward"], h["right"], h["up"]) for h in lava] == [(3, 0, -1)]
    assert "lava at forward 3, down 1" in hazard.call("mc-observe-blocks").value
