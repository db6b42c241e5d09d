"""Walking in the known map: standable cells, moves with step-ups and bounded drops, and frontiers."""

from __future__ import annotations

from agent.world.spatial import Frontier, SpatialMemory
from spatial_worlds import column, layer, survey

FEET = (0, 1, 0)


def memory_of(*surveys) -> SpatialMemory:
    memory = SpatialMemory.open(None)
    for s in surveys:
        memory.record(s)
    return memory


def test_on_flat_ground_every_cell_within_the_radius_is_its_manhattan_distance_away():
    flat = memory_of(survey((-6, 0, -6), (7, 4, 7), solid=layer(0, -6, 6, -6, 6)))
    moves = flat.reachable(FEET, radius=3)
    assert moves == {(x, 1, z): abs(x) + abs(z) for x in range(-3, 4) for z in range(-3, 4)}


def test_a_one_block_step_is_one_move_and_a_two_block_step_is_none():
    ground = layer(0, -6, 6, -6, 6)
    one = memory_of(survey((-6, 0, -6), (7, 6, 7), solid=ground | layer(1, 2, 6, -6, 6)))
    assert one.reachable(FEET, radius=4)[(2, 2, 0)] == 2
    assert one.reachable((3, 2, 0), radius=4)[(0, 1, 0)] == 3  # and down again
    two = memory_of(survey((-6, 0, -6), (7, 6, 7), solid=ground | layer(1, 2, 6, -6, 6) | layer(2, 2, 6, -6, 6)))
    assert two.standable(2, 3, 0) and (2, 3, 0) not in two.reachable(FEET, radius=4)


def test_a_step_up_needs_headroom_above_the_head():
    ground = layer(0, -6, 6, -6, 6) | layer(1, 2, 6, -6, 6)
    low_ceiling = layer(3, 1, 1, -6, 6)  # over the row just before the step: no room to jump
    memory = memory_of(survey((-6, 0, -6), (7, 6, 7), solid=ground | low_ceiling))
    moves = memory.reachable(FEET, radius=4)
    assert (1, 1, 0) in moves and (2, 2, 0) not in moves


def test_drops_are_bounded_by_max_drop():
    ground = layer(0, -6, 6, -6, 6)
    for height, reached_at in ((3, 3), (4, 4)):  # a platform `height` blocks above the ground, x <= 1
        ledge = set().union(*(layer(y, -6, 1, -6, 6) for y in range(1, height + 1)))
        memory = memory_of(survey((-6, 0, -6), (7, 10, 7), solid=ground | ledge))
        top = (0, height + 1, 0)
        assert memory.standable(*top)
        for max_drop in (3, 4):
            landed = (2, 1, 0) in memory.reachable(top, max_drop=max_drop, radius=6)
            assert landed == (max_drop >= reached_at), (height, max_drop)


def test_a_fall_through_an_unknown_cell_is_not_a_move():
    ground = layer(0, -6, 6, -6, 6)
    ledge = set().union(*(layer(y, -6, 1, -6, 6) for y in (1, 2, 3)))  # stand on it at y = 4
    fog = {(2, 3, 0)}  # on the way down from (1, 4, 0) eastwards
    clear = memory_of(survey((-6, 0, -6), (7, 8, 7), solid=ground | ledge))
    assert clear.reachable((1, 4, 0), radius=6)[(2, 1, 0)] == 1
    foggy = memory_of(survey((-6, 0, -6), (7, 8, 7), solid=ground | ledge, unknown=fog))
    assert foggy.reachable((1, 4, 0), radius=6)[(2, 1, 0)] == 3  # along the ledge, down beside the fog, back


def test_a_room_with_a_door_to_unknown_space_has_its_one_frontier_in_the_doorway():
    floor, roof = layer(0, -3, 3, -3, 3), layer(3, -3, 3, -3, 3)
    walls = {(x, y, z) for x in range(-3, 4) for z in range(-3, 4) for y in (1, 2) if max(abs(x), abs(z)) == 3}
    door = column(0, -3, 1, 2)
    room = memory_of(survey((-3, 0, -3), (4, 4, 4), solid=floor | roof | (walls - door), sky_from=4))
    found = room.frontiers(FEET)
    assert found == [Frontier(0, 1, -3, moves=3, unknown=2, sky=False)]  # beyond it: z = -4, never surveyed


def test_an_unknown_footing_beside_a_free_body_makes_a_frontier():
    ground = layer(0, -6, 6, -6, 6) - {(2, 0, 0)}
    memory = memory_of(survey((-6, 0, -6), (7, 4, 7), solid=ground, unknown={(2, 0, 0)}))
    found = {(f.x, f.y, f.z): f for f in memory.frontiers(FEET, radius=3)}
    assert set(found) == {(1, 1, 0), (3, 1, 0), (2, 1, -1), (2, 1, 1)}
    assert all(f.unknown == 1 and f.sky for f in found.values())


def test_a_frontier_up_a_two_block_step_is_listed_but_not_reachable():
    ground = layer(0, -5, 5, -5, 5) | column(2, 2, 1, 2)  # a pillar two blocks high
    fog = column(3, 2, 3, 4)  # beside the pillar's top, never seen
    memory = memory_of(survey((-5, 0, -5), (6, 5, 6), solid=ground, unknown=fog))
    found = {(f.x, f.y, f.z): f.moves for f in memory.frontiers(FEET, radius=3)}
    assert found == {(2, 3, 2): None}
