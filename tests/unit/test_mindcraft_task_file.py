"""Mindcraft task files read as they are written (agent/eval/mindcraft.py), on files of the
tests' own in that format: single-agent techtree tasks become episodes in the resource patch with
the initial inventory, a has_item check and the timeout as the bound; construction tasks become
episodes on the flat field, their blueprint moved from Mindcraft's ground to ours in front of the
spawn, checked by name and every cell scored; multi-agent techtree and construction tasks become
a team's episodes, each bot with its agent's inventory and denied tools; cooking and unreadable
construction tasks are left out with why; a file that is not one is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.eval.mindcraft import load_task_file

FILE = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "mindcraft_tasks.json"
CONSTRUCTION = FILE.with_name("mindcraft_construction.json")
EXAMPLES = Path(__file__).resolve().parents[2] / "server-config" / "eval" / "mindcraft" / "example_tasks.json"


def test_techtree_tasks_become_episodes_in_the_resource_patch() -> None:
    suite, tasks = load_task_file(FILE)
    assert suite.name == "mindcraft_tasks" and [t.name for t in tasks] == ["get_a_log", "sticks_from_planks",
                                                                          "too_slow", "two_crafters"]
    sticks = tasks[1]
    assert sticks.source == "resource-patch" and sticks.goal == "Craft sticks." and sticks.timeout_s == 200
    assert sticks.check.describe() == "has_item stick 4"
    world = sticks.scenario(0)
    assert [(i.name, i.count) for i in world.inventory] == [("oak_planks", 2)] and world.goal == "Craft sticks."
    assert tasks[0].inventory == [] and tasks[0].team is None  # {"0": {}}: the first agent's, empty


def test_a_multi_agent_techtree_task_is_a_teams_each_bot_with_its_agents_inventory_and_denials() -> None:
    _, tasks = load_task_file(FILE)
    team = next(t for t in tasks if t.name == "two_crafters").team
    assert team is not None and team.goal == "Craft a crafting table together." and team.shares_goal()
    assert [(b.name, [(i.name, i.count) for i in b.inventory or []], b.denied) for b in team.bots] == [
        ("agent0", [("oak_planks", 2)], ["mc-collect"]), ("agent1", [("oak_planks", 2)], [])]


def test_the_tasks_not_run_are_named_with_why() -> None:
    suite, _ = load_task_file(FILE)
    why = {t.name: t.reason for t in suite.not_run}
    assert "two_crafters" not in why
    assert "cooking" in why["bake_bread"]
    assert why["a_small_house"] == "task a_small_house: not a Mindcraft blueprint: levels: List should have at least 1 item after validation, not 0"


def test_a_construction_task_is_built_on_the_flat_field_in_front_of_the_spawn() -> None:
    suite, tasks = load_task_file(CONSTRUCTION)
    assert [t.name for t in tasks] == ["a_bench", "a_bench_for_two"] and [e.scenario for e in suite.scenarios] == ["flat"]
    assert suite.not_run == []
    bench = tasks[0]
    assert bench.source == "flat" and bench.timeout_s == 300 and bench.team is None
    assert [(i.name, i.count) for i in bench.inventory] == [("oak_planks", 3), ("cobblestone", 1)]
    # the spawn is (0.5, 5, 0.5) facing south: level 0 on y=5, the near side two blocks south, centred
    assert bench.check.as_data()["blueprint"] == {"anchor": [-1, 5, 2], "blocks": [
        {"at": [0, 0, 0], "block": "oak_planks"}, {"at": [1, 0, 0], "block": "oak_planks"},
        {"at": [1, 1, 0], "block": "cobblestone"}, {"at": [2, 0, 0], "block": "oak_planks"}]}
    assert bench.build is not None and len(bench.build.blocks) == 4 + 8  # the blocks and the air of the box
    assert bench.built(0) == bench.build


def test_a_multi_agent_construction_task_is_a_teams_each_bot_holding_its_agents_share() -> None:
    _, (_, for_two) = load_task_file(CONSTRUCTION)
    assert for_two.team is not None and for_two.team.shares_goal() and for_two.source == "flat"
    assert [(b.name, [(i.name, i.count) for i in b.inventory or []]) for b in for_two.team.bots] == [
        ("agent0", [("stone", 1)]), ("agent1", [])]
    assert for_two.check.describe().startswith("blueprint") and for_two.build is not None


def test_a_construction_task_scored_on_another_seed_moves_with_its_check() -> None:
    _, (bench, _) = load_task_file(CONSTRUCTION)
    turned, world = bench.built(3), bench.scenario(3)
    assert turned is not None and world.success is not None
    checked = {cell for cell, _ in world.success.blueprint.cells()}
    assert checked == {cell for cell, block in turned.cells() if block != "air"} != {c for c, _ in bench.build.cells()}


def test_mindcrafts_example_file_loads_whole_every_task_run_or_listed_with_why() -> None:
    written = json.loads(EXAMPLES.read_text())
    suite, tasks = load_task_file(EXAMPLES)
    why = {t.name: t.reason for t in suite.not_run}
    assert sorted([t.name for t in tasks] + list(why)) == sorted(written)
    assert [t.name for t in tasks] == ["techtree_1_shears_with_2_iron_ingot", "multiagent_techtree_1_stone_pickaxe",
                                       "construction_house", "multiagent_construction_house", "construction_large_house",
                                       "multiagent_techtree_1_shears", "smelt_ingot", "multiagent_smelt_ingot"]
    assert "Mindcraft's own runtime" in why["debug_different_goal"]  # a goal per agent
    assert "cooking tasks need" in why["multiagent_cooking_2"]  # a target of items to counts
    assert "Mindcraft's own runtime" in why["debug_single_agent"]  # no agent_count: one agent


def test_every_shape_of_a_one_agent_task_is_read(tmp_path: Path) -> None:
    path = tmp_path / "shapes.json"
    path.write_text(json.dumps({
        "per_agent_goal": {"goal": {"0": "Make sticks."}, "type": "techtree", "target": "stick", "number_of_target": 4},
        "items_to_counts": {"goal": "Two things.", "type": "techtree", "target": {"stick": 4, "crafting_table": 1}},
        "a_list": {"goal": "Dishes.", "type": "techtree", "target": ["bread", "cake"]},
        "denied": {"goal": "x", "type": "techtree", "target": "stick", "blocked_actions": {"0": ["!attack"]}},
        "no_collecting": {"goal": "x", "type": "techtree", "target": "stick", "blocked_actions": {"0": ["!collectBlocks"]}},
        "allowed": {"goal": "x", "type": "techtree", "target": "stick", "blocked_actions": {"0": []}},
        "not_a_task": "a string",
    }))
    suite, tasks = load_task_file(path)
    by_name = {t.name: t for t in tasks}
    assert by_name["per_agent_goal"].goal == "Make sticks."
    assert by_name["items_to_counts"].check.describe() == "all(has_item stick 4, has_item crafting_table 1)"
    assert by_name["a_list"].check.describe() == "all(has_item bread 1, has_item cake 1)"
    assert "allowed" in by_name
    why = {t.name: t.reason for t in suite.not_run}
    assert why["denied"] == "denies Mindcraft's commands !attack, which this runtime's tools do not map to"
    assert why["not_a_task"].startswith("task not_a_task: ")


def test_items_a_task_names_by_an_older_name_are_today_s_and_one_that_is_none_leaves_its_task_out(tmp_path: Path) -> None:
    path = tmp_path / "names.json"
    path.write_text(json.dumps({
        "dye": {"goal": "Make red dye.", "type": "techtree", "target": "rose_red", "initial_inventory": {"red_flower": 1}},
        "door": {"goal": "x", "type": "techtree", "target": "wooden_door", "initial_inventory": {"planks": 6}},
        "made_up": {"goal": "x", "type": "techtree", "target": "stick", "initial_inventory": {"shiny_thing": 1}},
    }))
    suite, tasks = load_task_file(path)
    by_name = {t.name: t for t in tasks}
    assert by_name["dye"].check.describe() == "has_item red_dye 1" and by_name["dye"].inventory[0].name == "poppy"
    assert by_name["door"].check.describe() == "has_item oak_door 1" and by_name["door"].inventory[0].name == "oak_planks"
    assert [(t.name, t.reason) for t in suite.not_run] == [
        ("made_up", "'shiny_thing' is no item of the game, under any name this reader knows (agent/mc/aliases.yaml)")]


@pytest.mark.parametrize(("text", "message"), [
    ("[1, 2]", "expected an object of tasks by name"),
    ("{not json", "is not a Mindcraft task file"),
    ('{"t": {"goal": "x", "type": "techtree", "number_of_target": 0}}', "task t: number_of_target"),
    ('{"t": {"goal": "x", "type": "cooking"}}', "none of its 1 tasks can run here"),
])
def test_a_file_that_is_not_one_is_refused_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tasks.json"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message) as refused:
        load_task_file(path)
    assert "\n" not in str(refused.value)
