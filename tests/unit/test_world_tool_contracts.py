"""Every Minecraft world tool: its folder, its Skill.md contract, and its arguments stated once,
in its tool.py's model, from which the loaded schema is made."""

from __future__ import annotations

import pytest
import yaml

from agent.paths import WORLD_TOOLS_DIR
from agent.tools import ToolResult, load_toolbox, standard_sources
from agent.tools.completion import judged
from agent.tools.model_schema import model_schema
from agent.tools.runners import args_model

TOOLS = sorted(p.name for p in (WORLD_TOOLS_DIR / "minecraft").iterdir() if (p / "Skill.md").is_file())
EXPECTED = {
    "mc-status", "mc-look", "mc-move", "mc-observe-blocks", "mc-wait", "mc-stop", "mc-say",
    "mc-dig", "mc-place", "mc-inventory", "mc-equip", "mc-respawn", "mc-goto",
    "mc-map", "mc-explore", "mc-pillar-up", "mc-dig-stairs", "mc-tunnel", "mc-find", "mc-collect", "mc-approach", "mc-follow", "mc-build", "mc-chest", "mc-give",
    "mc-tell", "mc-craft", "mc-smelt",
}


@pytest.fixture(scope="module")
def toolbox():
    box = load_toolbox(standard_sources("minecraft", []))
    assert not box.errors, box.errors
    return box


def test_the_body_has_every_tool() -> None:
    assert set(TOOLS) == EXPECTED


@pytest.mark.parametrize("name", TOOLS)
def test_the_arguments_are_stated_once_in_the_model_and_loaded_from_it(toolbox, name: str) -> None:
    spec = toolbox.tools[name]
    assert spec.type == "python" and spec.source == "minecraft" and spec.path.parent.name == name
    front = yaml.safe_load(spec.path.read_text().split("---")[1])
    assert not {"schema_hint", "slots"} & set(front), f"{name}: its Skill.md states arguments its tool.py states"
    model = args_model(name, spec.path.parent / "tool.py")
    if model is None:
        assert spec.schema_hint is None, name
        return
    assert spec.schema_hint == model_schema(model)
    fields = model.model_fields
    assert list(spec.schema_hint.properties) == sorted(fields, key=lambda n: not fields[n].is_required())
    assert spec.schema_hint.required == [n for n, f in fields.items() if f.is_required()]
    for arg, prop in spec.schema_hint.properties.items():
        if not fields[arg].is_required() and fields[arg].default_factory is None:
            assert prop.default == fields[arg].default, f"{name}.{arg}: the planner is told the code's default"


@pytest.mark.parametrize("name", TOOLS)
def test_contract_is_written_for_the_model(toolbox, name: str) -> None:
    spec = toolbox.tools[name]
    assert 20 <= len(spec.description) <= 120
    assert spec.body.strip(), f"{name}: the Skill.md body should say what comes back"


# Tools that change the world or the bot: each declares when its result achieved the step.
ACTING = {"mc-look", "mc-move", "mc-dig", "mc-place", "mc-equip", "mc-respawn", "mc-goto", "mc-explore",
          "mc-pillar-up", "mc-dig-stairs", "mc-tunnel", "mc-collect", "mc-approach", "mc-follow", "mc-build", "mc-chest", "mc-give",
          "mc-craft", "mc-smelt"}


def test_every_tool_that_acts_declares_when_it_is_complete(toolbox) -> None:
    assert {name for name, spec in toolbox.tools.items() if spec.complete_when} == ACTING


@pytest.mark.parametrize(("name", "args", "data", "complete"), [
    ("mc-move", {"blocks": 3}, {"moved": 3.02}, True),
    ("mc-move", {"blocks": 3}, {"moved": 2.1}, False),
    ("mc-move", {"forward": True, "duration": 1}, {"moved": 0.0}, True),  # a hold asks for no distance
    ("mc-dig", {"forward": 1}, {"gone": False}, False),
    ("mc-place", {"item": "stick"}, {"placed": False}, False),
    ("mc-equip", {"item": "dirt"}, {"held": {"name": "dirt"}}, True),
    ("mc-equip", {"item": "dirt"}, {"held": None}, False),
    ("mc-equip", {"item": "iron_helmet", "destination": "head"}, {"held": None}, True),
    ("mc-look", {"facing": "north"}, {"facing": "east"}, False),
    ("mc-pillar-up", {}, {"height_gained": 1.0}, True),  # blocks: its default, 1
    ("mc-dig-stairs", {"direction": "down", "steps": 2}, {"height_gained": -2.0}, True),
    ("mc-dig-stairs", {"direction": "down", "steps": 2}, {"height_gained": -1.0}, False),
    ("mc-tunnel", {"blocks": 4}, {"distance": 2.0}, False),
    ("mc-collect", {"block": "oak_log", "count": 3}, {"blocks_dug": 2}, False),
    ("mc-collect", {"block": "oak_log"}, {"blocks_dug": 1}, True),  # count: its default, 1
    ("mc-respawn", {}, {"health": 20}, True),
    ("mc-craft", {"item": "stick"}, {"stop_reason": "incomplete"}, False),
    ("mc-smelt", {"item": "iron_ingot"}, {"stop_reason": "completed"}, True),
])
def test_a_declared_check_judges_the_report(toolbox, name, args, data, complete) -> None:
    spec = toolbox.tools[name]
    result = judged(spec.complete_when, spec.schema_hint, args, ToolResult.success(data))
    assert result.ok is complete, result.reason
