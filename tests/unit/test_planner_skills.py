"""The shipped skills: they load, their protocols call real world tools, and reach-open-sky
checks the sky itself around its sub-plans."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.paths import SKILLS_DIR
from agent.planner.method import method_tools, task_labels
from agent.tools import ToolResult, load_toolbox, standard_sources
from agent.tools.runners import import_entry


@pytest.fixture(scope="module")
def box():
    toolbox = load_toolbox(standard_sources("minecraft", [Path("skills")], base=SKILLS_DIR.parent))
    assert not toolbox.errors, toolbox.errors
    return toolbox


@pytest.mark.parametrize(("name", "outcomes", "tools"), [
    ("explore-area", ["DISCOVERY", "FAILED", "INAPPLICABLE"],
     ["mc-look", "mc-move", "mc-observe-blocks", "mc-status", "mc-stop"]),
    ("exit-pit", ["SUCCESS", "FAILED", "INAPPLICABLE"],
     ["mc-dig", "mc-look", "mc-move", "mc-observe-blocks", "mc-status"]),
])
def test_methods_declare_their_outcomes_and_call_world_tools(box, name, outcomes, tools):
    spec = box.tools[name]
    assert spec.type == "method" and spec.max_steps
    assert [label for label in task_labels(spec.protocol) if label.startswith("TERMINATION")] == [
        f"TERMINATION ({o})" for o in outcomes]
    assert method_tools(spec, box) == tools
    assert all(box.tools[t].source == "minecraft" for t in tools)


def test_each_explore_area_step_offers_the_tools_it_calls(box):
    spec = box.tools["explore-area"]
    offered = [method_tools(spec, box, label) for label in task_labels(spec.protocol)[:6]]
    assert offered == [["mc-look"], ["mc-observe-blocks"], ["mc-look"], ["mc-move"], ["mc-status", "mc-stop"],
                       ["mc-observe-blocks"]]


class FakeWorld:
    """mc-observe-blocks says what `skies` lists, one per call; subplan calls are counted."""

    def __init__(self, skies: list[bool]):
        self.skies = skies
        self.subplans: list[dict] = []

    def execute_action(self, action):
        if action["type"] == "mc-status":
            return ToolResult.success({"position": {"x": 1, "y": 5, "z": -9}}, "at 1 5 -9")
        sky = self.skies.pop(0)
        return ToolResult.success({"sky_visible": sky}, f"sky {'visible' if sky else 'hidden'}")

    def subplan(self, goal, tools=None, max_steps=None):
        self.subplans.append({"goal": goal, "tools": tools, "max_steps": max_steps})
        return ToolResult.success({"outcome": "done"})


@pytest.fixture(scope="module")
def reach_open_sky():
    return import_entry("reach-open-sky", SKILLS_DIR / "reach-open-sky" / "tool.py")


def test_reach_open_sky_returns_at_once_under_open_sky(reach_open_sky):
    world = FakeWorld([True])
    result = reach_open_sky(executor=world)
    assert result.ok and result.data == {"sky_visible": True, "rounds": 0, "position": {"x": 1, "y": 5, "z": -9}}
    assert world.subplans == []


def test_reach_open_sky_plans_between_its_own_checks(reach_open_sky):
    world = FakeWorld([False, False, True])
    result = reach_open_sky(executor=world, steps=4)
    assert result.ok and result.data["rounds"] == 2
    assert [p["max_steps"] for p in world.subplans] == [4, 4]
    assert world.subplans[0]["tools"] == ["mc-look", "mc-move", "mc-observe-blocks", "mc-status"]
    assert "sky hidden" in world.subplans[0]["goal"]


def test_reach_open_sky_trusts_its_check_not_the_sub_plans_word(reach_open_sky):
    world = FakeWorld([False, False, False])
    result = reach_open_sky(executor=world, rounds=2)
    assert not result.ok and "sky still hidden after 2 sub-plan(s)" in result.reason
    assert len(world.subplans) == 2
