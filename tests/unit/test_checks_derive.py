"""A check read from a goal's words (agent/checks/derive.py), for a run given none: getting
things becomes has_item with the game's item name and the count; finding or standing by a
block becomes near_block, which names no place; anything else gets no check."""

from __future__ import annotations

import pytest

from agent.checks.derive import derive_check
from agent.cli.run_cmd import goal_and_check
from agent.server import load_scenario
from agent.session.world import WorldOptions


@pytest.mark.parametrize(("goal", "check"), [
    ("Collect three oak logs", "has_item oak_log 3"),
    ("collect 3 oak logs from the tree", "has_item oak_log 3"),
    ("Gather 5 dirt blocks", "has_item dirt 5"),
    ("Mine two cobblestone.", "has_item cobblestone 2"),
    ("Get a stone pickaxe", "has_item stone_pickaxe 1"),
    ("get 2 torches", "has_item torch 2"),
    ("Chop 4 birch logs and then come back", "has_item birch_log 4"),
    ("Collect three oak planks", "has_item oak_planks 3"),
    ("Stand next to the gold block", "near_block gold_block 2"),
    ("Find the gold block", "near_block gold_block 2"),
    ("find a chest and stand by it", "near_block chest 2"),
    ("walk to the gold block", "near_block gold_block 2"),
    ("Go near the diamond ore", "near_block diamond_ore 2"),
    ("Put five oak logs into the chest.", "container_has oak_log 5"),
    ("store 3 cobblestone in a chest", "container_has cobblestone 3"),
    ("Put the dirt in the chest", "container_has dirt 1"),
    ("Take three bread from the chest.", "has_item bread 3"),
    ("Follow alex as he walks away.", "near_player alex 3"),
    ("get out of the cave to open sky", "sky_visible"),
    ("Craft a wooden pickaxe.", "has_item wooden_pickaxe 1"),
    ("Leave the hall to a place where you can see the sky.", "sky_visible"),
    ("stay close to Steve_2", "near_player Steve_2 3"),
])
def test_a_goal_that_names_a_count_of_an_item_or_a_block_to_be_by_gets_its_check(goal: str, check: str) -> None:
    derived = derive_check(goal)
    assert derived is not None and derived.describe() == check


@pytest.mark.parametrize("goal", [
    "get out of the pit",
    "keep notes of what you see",
    "collect three shiny things",  # not an item the game has
    "find the exit",  # not a block
    "get a look around",
    "put the shiny things in the chest",
    "follow me",  # who "me" is, the words do not say
])
def test_a_goal_no_rule_reads_gets_no_check(goal: str) -> None:
    assert derive_check(goal) is None


def test_a_scenario_s_check_goes_with_its_own_goal_only() -> None:
    world = WorldOptions(scenario=load_scenario("tree"))
    assert goal_and_check(None, None, world)[1].describe() == "has_item oak_log 3"
    other = goal_and_check("Craft a wooden pickaxe.", None, world)[1]  # not the tree's "Collect three oak logs."
    assert other is None  # the run derives its own from the words (run_cmd), never the tree's
    assert goal_and_check("Craft a wooden pickaxe.", "has_item: {name: stick}", world)[1].describe() == "has_item stick 1"
