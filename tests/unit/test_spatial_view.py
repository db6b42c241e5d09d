"""The map as it is shown: mc-map's picture and its egocentric frontiers at each facing, and the
whole-map overview the report draws."""

from __future__ import annotations

import pytest

from agent.mc.geometry import BlockPos
from agent.world.spatial import Mark, SpatialMemory, map_view, overview
from agent.world.spatial.view import bearing
from spatial_worlds import column, layer, survey

FEET = BlockPos(x=0, y=1, z=0)


@pytest.fixture
def room() -> SpatialMemory:
    """A stone room, inner x and z -2..2, roofed, a doorway north at (0, 1, -3), a water floor
    block at (2, 0, 2); nothing known beyond its walls. The bot stood at (1, 1, 1) before."""
    floor, roof = layer(0, -3, 3, -3, 3) - {(2, 0, 2)}, layer(3, -3, 3, -3, 3)
    walls = {(x, y, z) for x in range(-3, 4) for z in range(-3, 4) for y in (1, 2) if max(abs(x), abs(z)) == 3}
    memory = SpatialMemory.open(None)
    memory.record(survey((-3, 0, -3), (4, 4, 4), solid=floor | roof | (walls - column(0, -3, 1, 2)), water={(2, 0, 2)},
                         sky_from=4))
    memory.mark_visited(1, 1, 1)
    return memory


def test_the_picture_shows_walls_door_frontier_water_visits_and_the_bot_north_up(room):
    view = map_view(room, FEET, "east", 4)
    assert view.picture == [
        "         ",
        " ###+### ",
        " #.....# ",
        " #.....# ",
        " #..>..# ",
        " #...o.# ",
        " #....~# ",
        " ####### ",
        "         ",
    ]
    assert "# wall" in view.legend and "+ frontier" in view.legend
    assert (view.frontier_count, view.reachable_frontiers, view.known_cells) == (1, 1, room.known_cells())


@pytest.mark.parametrize(("facing", "forward", "right", "words", "glyph"), [
    ("north", 3, 0, "ahead", "^"), ("east", 0, -3, "left", ">"), ("south", -3, 0, "behind", "v"), ("west", 0, 3, "right", "<"),
])
def test_the_doorway_frontier_in_the_bots_frame_at_each_facing(room, facing, forward, right, words, glyph):
    view = map_view(room, FEET, facing, 4)
    (door,) = view.frontiers
    assert (door.x, door.y, door.z) == (0, 1, -3)  # world: north of the bot
    assert (door.forward, door.right, door.up, door.bearing) == (forward, right, 0, words)
    assert (door.moves, door.reachable, door.distance, door.sky, door.unknown) == (3, True, 3.0, False, 2)
    assert view.picture[4][4] == glyph


def test_bearings_split_the_turn_in_eighths():
    assert [bearing(f, r) for f, r in ((1, 0), (2, 2), (0, 1), (-1, 1), (-3, 0), (-1, -1), (0, -5), (4, -3))] == [
        "ahead", "ahead right", "right", "behind right", "behind", "behind left", "left", "ahead left"]
    assert bearing(0, 0) == "here"


def test_frontiers_come_reachable_first_then_by_moves():
    ground = layer(0, -6, 6, -6, 6) | column(-2, 2, 1, 2)  # a pillar two blocks high south-west
    fog = {(4, y, 0) for y in (1, 2)} | {(-3, y, 2) for y in (3, 4)}  # unknown east, and beside the pillar's top
    memory = SpatialMemory.open(None)
    memory.record(survey((-6, 0, -6), (7, 6, 7), solid=ground, unknown=fog))
    listed = [(f.x, f.y, f.z, f.moves) for f in map_view(memory, FEET, "north", 4).frontiers]
    assert listed[0] == (3, 1, 0, 3) and listed[-1] == (-2, 3, 2, None)


def test_the_overview_marks_every_known_column_over_a_band_of_levels(room):
    marks = overview(room, 1, 1)
    assert marks[(0, -3)] == Mark.FRONTIER and marks[(1, 1)] == Mark.VISITED and marks[(2, 2)] == Mark.WET
    assert marks[(3, 0)] == Mark.WALL and marks[(-1, 0)] == Mark.FREE
    assert (0, -4) not in marks and len(marks) == 7 * 7
