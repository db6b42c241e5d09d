"""Mindcraft task files read as they are written (agent/eval/mindcraft.py), on files of the
tests' own in that format: single-agent techtree tasks become episodes in the resource patch with
the initial inventory, a has_item check and the timeout as the bound; single-agent construction
tasks become episodes on the flat field, their blueprint moved from Mindcraft's ground to ours in
front of the spawn, checked by name and every cell scored; multi-agent, cooking and unreadable
construction tasks are left out with why; a file that is not one is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.eval.mindcraft import load_task_file

FILE = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "mindcraft_tasks.json"
CONSTRUCTION = FILE.with_name("mindcraft_construction.json")


def test_techtree_tasks_become_episodes_in_the_resource_patch() -> None:
    suite, tasks = load_task_file(FILE)
    assert suite.name == "mindcraft_tasks" and [t.name for t in tasks] == ["get_a_log", "sticks_from_planks", "too_slow"]
    sticks = tasks[1]
    assert sticks.source == "resource-patch" and sticks.goal == "Craft sticks." and sticks.timeout_s == 200
    assert sticks.check.describe() == "has_item stick 4"
    world = sticks.scenario(0)
    assert [(i.name, i.count) for i in world.inventory] == [("oak_planks", 2)] and world.goal == "Craft sticks."
    assert tasks[0].inventory == []  # {"0": {}}: the first agent's, empty


def test_the_tasks_not_run_are_named_with_why() -> None:
    suite, _ = load_task_file(FILE)
    why = {t.name: t.reason for t in suite.not_run}
    assert why["two_crafters"].startswith("multi-agent (2 agents)")
    assert "cooking" in why["bake_bread"]
    assert why["a_small_house"] == "task a_small_house: not a Mindcraft blueprint: levels: List should have at least 1 item after validation, not 0"


def test_a_construction_task_is_built_on_the_flat_field_in_front_of_the_spawn() -> None:
    suite, tasks = load_task_file(CONSTRUCTION)
    assert [t.name for t in tasks] == ["a_bench"] and [e.scenario for e in suite.scenarios] == ["flat"]
    assert [(t.name, t.reason) for t in suite.not_run] == [("a_bench_for_two", "multi-agent (2 agents): an episode "
                                                                               "runs one bot")]
    bench = tasks[0]
    assert bench.source == "flat" and bench.timeout_s == 300
    assert [(i.name, i.count) for i in bench.inventory] == [("oak_planks", 3), ("cobblestone", 1)]
    # the spawn is (0.5, 5, 0.5) facing south: level 0 on y=5, the near side two blocks south, centred
    assert bench.check.as_data()["blueprint"] == {"anchor": [-1, 5, 2], "blocks": [
        {"at": [0, 0, 0], "block": "oak_planks"}, {"at": [1, 0, 0], "block": "oak_planks"},
        {"at": [1, 1, 0], "block": "cobblestone"}, {"at": [2, 0, 0], "block": "oak_planks"}]}
    assert bench.build is not None and len(bench.build.blocks) == 4 + 8  # the blocks and the air of the box
    assert bench.built(0) == bench.build


def test_a_construction_task_scored_on_another_seed_moves_with_its_check() -> None:
    _, (bench,) = load_task_file(CONSTRUCTION)
    turned, world = bench.built(3), bench.scenario(3)
    assert turned is not None and world.success is not None
    checked = {cell for cell, _ in world.success.blueprint.cells()}
    assert checked == {cell for cell, block in turned.cells() if block != "air"} != {c for c, _ in bench.build.cells()}


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
