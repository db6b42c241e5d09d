"""Mindcraft task files read as they are written (agent/eval/mindcraft.py), on a file of the
tests' own in that format: single-agent techtree tasks become episodes in the resource patch with
the initial inventory, a has_item check and the timeout as the bound; multi-agent, cooking and
construction tasks are left out with why; a file that is not one is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.eval.mindcraft import load_task_file

FILE = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "mindcraft_tasks.json"


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
    assert "cooking" in why["bake_bread"] and "construction" in why["a_small_house"]


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
