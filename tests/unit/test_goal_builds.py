"""The cells a goal builds (agent/goals/builds.py): those of every blueprint in the run's whole
check, block names without their state, never the cells that must be air; read from the
executor's run_check, not the sub-goal the planner narrows goal_check to."""

from __future__ import annotations

from types import SimpleNamespace

from agent.checks import parse_check
from agent.goals.builds import built, kept

HOUSE = parse_check({"all": [
    {"blueprint": {"anchor": [10, 5, 20], "blocks": [
        {"at": [0, 0, 0], "block": "oak_planks"}, {"at": [1, 0, 0], "block": "oak_door[half=lower,facing=south]"},
        {"at": [1, 1, 0], "block": "oak_door[half=upper,facing=south]"}, {"at": [0, 1, 0], "block": "air"}]}},
    {"has_item": {"name": "oak_door"}}]}, "goal")


def test_a_build_is_its_blueprints_cells_with_a_block_named_without_its_state() -> None:
    assert built(HOUSE) == {(10, 5, 20): "oak_planks", (11, 5, 20): "oak_door", (11, 6, 20): "oak_door"}
    assert built(parse_check({"has_item": {"name": "oak_planks"}}, "c")) == {} and built(None) == {}


def test_the_cells_kept_are_the_run_s_whole_check_s_not_the_focus_s() -> None:
    focused = SimpleNamespace(run_check=HOUSE, goal_check=parse_check({"has_item": {"name": "oak_planks"}}, "need"))
    assert set(kept(focused)) == {(10, 5, 20), (11, 5, 20), (11, 6, 20)}
    assert kept(SimpleNamespace(run_check=None)) == {} and kept(None) == {}
