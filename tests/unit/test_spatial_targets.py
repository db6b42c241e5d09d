"""Where mc-explore goes next: cells where the check would hold first, then frontiers, and
with terrain changes allowed, places walking cannot reach."""

from __future__ import annotations

from agent.checks import parse_check
from agent.world.spatial import SpatialMemory, next_target
from spatial_worlds import layer, survey

FEET = (0, 1, 0)
SKY = parse_check({"sky_visible": True}, "check")
HIGH = parse_check({"feet_y_at_least": 4}, "check")


def memory_of(*surveys) -> SpatialMemory:
    memory = SpatialMemory.open(None)
    for s in surveys:
        memory.record(s)
    return memory


def _choose(memory, check, avoid=frozenset(), **options):
    return next_target(memory, FEET, check, set(avoid), radius=8, max_drop=3, **options)


def test_a_reachable_cell_where_the_check_holds_wins_over_any_frontier():
    memory = memory_of(survey((-4, 0, -4), (5, 4, 5), solid=layer(0, -4, 4, -4, 4), unknown=layer(1, 4, 4, -4, 4)))
    target = _choose(memory, SKY)
    assert target.why == "goal" and target.cell != FEET and sum(map(abs, target.cell)) == 2  # one move away


def test_without_such_a_cell_the_nearest_frontier_is_next_and_failed_walks_are_avoided():
    memory = memory_of(survey((-4, 0, -4), (5, 4, 5), solid=layer(0, -4, 4, -4, 4), unknown=layer(1, 4, 4, -4, 4)))
    first = _choose(memory, HIGH)
    assert first.why == "frontier" and first.cell[0] == 3  # beside the unknown strip at x=4
    again = _choose(memory, HIGH, avoid={first.cell})
    assert again.why == "frontier" and again.cell != first.cell


def test_cells_stood_on_before_cost_more_than_new_ones():
    memory = memory_of(survey((-4, 0, -4), (5, 4, 5), solid=layer(0, -4, 4, -4, 4),
                              unknown=layer(1, 4, 4, -4, 4) | layer(1, -4, -4, -4, 4)))
    first = _choose(memory, HIGH)
    for _ in range(3):
        memory.mark_visited(*first.cell)
    assert _choose(memory, HIGH).cell != first.cell


def test_nothing_to_walk_to_is_none_unless_the_terrain_may_change():
    # a closed 3x3 pit 3 deep with the ground (y=4) known around it and open sky
    ground = layer(0, -4, 4, -4, 4) | {c for c in layer(1, -4, 4, -4, 4) | layer(2, -4, 4, -4, 4)
                                       | layer(3, -4, 4, -4, 4) if max(abs(c[0]), abs(c[2])) > 1}
    memory = memory_of(survey((-4, 0, -4), (5, 8, 5), solid=ground))
    out = parse_check({"all": [{"feet_y_at_least": 4}, {"outside": {"from": [-1, 0, -1], "to": [1, 9, 1]}}]}, "check")
    assert _choose(memory, out) is None
    climb = _choose(memory, out, change_terrain=True)
    assert climb.why == "goal" and climb.cell[1] == 4 and max(abs(climb.cell[0]), abs(climb.cell[2])) == 2


def test_in_a_closed_room_digging_aims_behind_the_nearest_wall():
    # a closed room: floor y=0, walls at x=±3 and z=±3 (feet and head level), roof y=3;
    # outside the walls nothing is known
    walls = {c for y in (1, 2) for c in layer(y, -3, 3, -3, 3) if max(abs(c[0]), abs(c[2])) == 3}
    solid = layer(0, -3, 3, -3, 3) | walls | layer(3, -3, 3, -3, 3)
    outside = {c for y in (0, 1, 2, 3) for c in layer(y, -5, 5, -5, 5) if max(abs(c[0]), abs(c[2])) > 3}
    memory = memory_of(survey((-5, 0, -5), (6, 4, 6), solid=solid, unknown=outside, sky_from=4))
    assert _choose(memory, SKY) is None and _choose(memory, SKY, change_terrain=True) is None
    dig = _choose(memory, SKY, change_terrain=True, dig=True)
    assert dig.why == "beyond_wall" and dig.cell[1] == 1 and max(abs(dig.cell[0]), abs(dig.cell[2])) == 4
    assert sum(abs(v) for v in (dig.cell[0], dig.cell[2])) == 4  # straight through the middle of a wall
