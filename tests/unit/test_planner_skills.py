"""The shipped skills: they load, their protocols call real world tools, and reach-open-sky
checks the sky itself around its sub-plans."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.paths import SKILLS_DIR
from agent.planner.labels import task_labels
from agent.planner.method import method_tools
from agent.tools import ToolResult, load_toolbox, standard_sources
from agent.tools.runners import import_entry


@pytest.fixture(scope="module")
def box():
    toolbox = load_toolbox(standard_sources("minecraft", [Path("skills")], base=SKILLS_DIR.parent))
    assert not toolbox.errors, toolbox.errors
    return toolbox


@pytest.mark.parametrize(("name", "outcomes", "tools"), [
    ("explore-area", ["DISCOVERY", "FAILED", "INAPPLICABLE"],
     ["mc-dig-stairs", "mc-explore", "mc-map"]),
    ("exit-pit", ["SUCCESS", "FAILED", "INAPPLICABLE"],
     ["mc-dig-stairs", "mc-explore", "mc-map", "mc-pillar-up"]),
])
def test_methods_declare_their_outcomes_and_call_world_tools(box, name, outcomes, tools):
    spec = box.tools[name]
    assert spec.type == "method" and spec.max_steps
    assert [label for label in task_labels(spec.protocol) if label.startswith("TERMINATION")] == [
        f"TERMINATION ({o})" for o in outcomes]
    assert method_tools(spec, box) == tools
    assert all(box.tools[t].source == "minecraft" for t in tools)


@pytest.mark.parametrize(("name", "per_step"), [
    ("explore-area", [["mc-explore"], ["mc-map"], ["mc-explore"], ["mc-explore"], ["mc-dig-stairs"]]),
    ("exit-pit", [["mc-map"], ["mc-explore"], ["mc-dig-stairs"], ["mc-pillar-up"]]),
])
def test_each_step_names_exactly_the_tools_it_calls(box, name, per_step):
    spec = box.tools[name]
    steps = task_labels(spec.protocol)[: len(spec.protocol.steps)]
    assert [method_tools(spec, box, label) for label in steps] == per_step


class FakeWorld:
    """mc-observe-blocks says what `skies` lists, one per call; mc-explore calls are kept."""

    def __init__(self, skies: list[bool]):
        self.skies = skies
        self.explored: list[dict] = []

    def execute_action(self, action):
        if action["type"] == "mc-status":
            return ToolResult.success({"position": {"x": 1, "y": 5, "z": -9}}, "at 1 5 -9")
        if action["type"] == "mc-explore":
            self.explored.append(action)
            return ToolResult.failure("stuck", "stuck: no place left to explore by walking")
        sky = self.skies.pop(0)
        return ToolResult.success({"sky_visible": sky}, f"sky {'visible' if sky else 'hidden'}")


@pytest.fixture(scope="module")
def reach_open_sky():
    return import_entry("reach-open-sky", SKILLS_DIR / "reach-open-sky" / "tool.py")


def test_reach_open_sky_returns_at_once_under_open_sky(reach_open_sky):
    world = FakeWorld([True])
    result = reach_open_sky(executor=world)
    assert result.ok and result.data == {"sky_visible": True, "rounds": 0, "position": {"x": 1, "y": 5, "z": -9}}
    assert world.explored == []


def test_reach_open_sky_explores_for_the_sky_between_its_own_checks(reach_open_sky):
    world = FakeWorld([False, False, True])
    result = reach_open_sky(executor=world, rounds=3)
    assert result.ok and result.data["rounds"] == 2
    assert [a["check"] for a in world.explored] == [{"sky_visible": True}] * 2
    assert all(a["climbs"] == 1 for a in world.explored)


def test_reach_open_sky_trusts_its_check_not_the_explorers_word(reach_open_sky):
    world = FakeWorld([False, False, False])
    result = reach_open_sky(executor=world, rounds=2)
    assert not result.ok and "sky still hidden after 2 round(s)" in result.reason
    assert len(world.explored) == 2
