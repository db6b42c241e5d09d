"""Structures asked in words (agent/goals/structures.py): the template named by its names, its
values from numbers and blocks said, placed by grounding ahead of where the bot looks or around
the thing named; an unknown structure is one line saying which are known."""

from __future__ import annotations

import pytest

from agent.blueprint.templates import Order
from agent.checks.model import All, Blueprint, Shelter
from agent.goals import Grounds, ground, understand
from agent.goals.grounds import Point, Sighted
from agent.server import load_scenario


@pytest.mark.parametrize(("goal", "order"), [
    ("Build a small house", Order(template="house")),
    ("build me a shelter", Order(template="house")),
    ("make a hut", Order(template="house")),
    ("build a 7x7 house of spruce planks with a spruce door",
     Order(template="house", values={"size": 7, "material": "spruce_planks", "door": "spruce_door"})),
    ("put up a wall around the chest", Order(template="enclosure", around="chest")),
    ("build a wall of stone 3 blocks high around the furnace",
     Order(template="enclosure", values={"height": 3, "material": "stone"}, around="furnace")),
    ("build a bridge across the gap", Order(template="bridge")),
    ("build a bridge 8 blocks long", Order(template="bridge", values={"length": 8})),
    ("build a tower 6 high", Order(template="tower", values={"height": 6})),
    ("build a 4 block high tower of cobblestone", Order(template="tower", values={"height": 4, "material": "cobblestone"})),
    ("build two pillars", Order(template="tower")),  # a count of structures is not read: one is built
    ("build a cobblestone wall", Order(template="wall", values={"material": "cobblestone"})),
    ("Make a 2x2 platform of dirt", Order(template="platform", values={"size": 2, "material": "dirt"})),
    ("Build a wall of dirt three blocks wide and two blocks high, two blocks in front of you.",
     Order(template="wall", values={"length": 3, "height": 2, "material": "dirt"}, ahead=2)),
])
def test_a_structure_s_words_choose_its_template_values_and_place(goal: str, order: Order) -> None:
    (subgoal,) = understand(goal).subgoals
    assert subgoal.building == order and not subgoal.grounded


@pytest.mark.parametrize(("goal", "understood"), [
    ("make a pickaxe near the house", "1. has_item any _pickaxe 1"),  # the house is where, not what
    ("make a fence", "1. has_item any _fence 1"),  # an item a recipe makes
    ("tower up 5 blocks", "1. feet_y_at_least start + 5"),  # climbing, no build verb
])
def test_a_structure_s_name_that_is_not_what_a_build_verb_puts_up_builds_nothing(goal: str, understood: str) -> None:
    assert understand(goal).line() == understood


@pytest.mark.parametrize(("goal", "message"), [
    ("build a castle", "asks for a castle, which I do not build; I build: bridge (walkway), "
                       "enclosure around a thing (wall, ring, pen), house (hut, shelter, cabin, home, shack, room), "
                       "platform (floor), tower (pillar, column, pole), wall"),
    ("build a ring", "a ring goes around a thing named after 'around' (around the chest)"),
    ("build a house around the chest", "a house goes ahead of the bot, not around a thing"),
    ("build a wall around me", "around what? Name a block there (around the chest)"),
    ("build a tower 40 high", "tower: height is 1 to 32, not 40"),
    ("build a tower 20 blocks in front of you", "a structure goes 1 to 16 blocks ahead, not 20"),
])
def test_a_structure_no_template_builds_is_not_understood_with_what_is_built(goal: str, message: str) -> None:
    read = understand(goal)
    assert read.subgoals == [] and [(u.words, u.why) for u in read.unread] == [(goal, message)]


def grounds(**values) -> Grounds:
    return Grounds(feet=Point(x=0.5, y=5.0, z=0.5), **values)


@pytest.mark.parametrize("scenario", ["pillar", "wall"])
def test_the_words_of_a_building_scenario_ground_to_its_own_success_check(scenario: str) -> None:
    shipped = load_scenario(scenario)
    assert shipped.goal is not None and isinstance(shipped.success, Blueprint)
    (subgoal,) = ground(understand(shipped.goal), grounds(facing=shipped.spawn.facing)).subgoals
    assert isinstance(subgoal.check, Blueprint) and subgoal.grounded
    assert sorted(subgoal.check.blueprint.cells()) == sorted(shipped.success.blueprint.cells())


def test_a_house_is_grounded_ahead_of_where_the_bot_looks_and_must_be_a_shelter_inside() -> None:
    goals = understand("Build a small house")
    east = ground(goals, grounds(facing="east"))
    assert east.line() == "1. all(blueprint of 75 cells at (2, 5, -2), shelter at (4, 5, 0))"
    check = east.subgoals[0].check
    assert isinstance(check, All) and isinstance(check.all[1], Shelter)
    # 55 planks, a door's two halves, and its inside, 3 x 3 and 2 high, cleared: on a natural
    # world the ground stands there, where the shelter's cell must be open
    inside = {cell for cell, block in check.all[0].blueprint.cells() if block == "air"}
    assert len(inside) == 18 and (4, 5, 0) in inside
    assert ground(goals, grounds()).subgoals == []  # the way it looks unread: no place to build


def test_a_ring_is_grounded_around_the_nearest_thing_of_its_kind_and_left_out_when_none_is_seen() -> None:
    goals = understand("put up a wall around the chest")
    chest = Sighted(name="chest", distance=4.0, at=Point(x=3, y=5, z=-2))
    placed = ground(goals, grounds(facing="south", blocks=[chest]))
    assert placed.line() == "1. blueprint of 32 cells at (1, 5, -4)"
    assert ground(goals, grounds(facing="south")).subgoals == []


def _woods(check) -> set[str]:
    return {block.split("[")[0] for _, block in check.all[0].blueprint.cells()} - {"air"}


def test_a_house_is_of_the_wood_carried_else_of_the_nearest_trees_unless_its_words_name_one() -> None:
    # A birch forest's house is of birch: its trees give the planks, where an oak house waits on
    # oaks that may not grow there.
    birch = Sighted(name="birch_log", distance=3.0)
    by_birches = ground(understand("Build a small house"), grounds(facing="south", blocks=[birch]))
    assert _woods(by_birches.subgoals[0].check) == {"birch_planks", "birch_door"}
    carried = grounds(facing="south", blocks=[birch], carried={"spruce_planks": 64})
    assert _woods(ground(understand("Build a small house"), carried).subgoals[0].check) == {"spruce_planks", "spruce_door"}
    named = ground(understand("Build a small house of cobblestone"), grounds(facing="south", blocks=[birch]))
    assert _woods(named.subgoals[0].check) == {"cobblestone", "birch_door"}  # the door the words left to it
    assert _woods(ground(understand("Build a small house"), grounds(facing="south")).subgoals[0].check) == {
        "oak_planks", "oak_door"}  # no wood said by anything: as the template writes it
