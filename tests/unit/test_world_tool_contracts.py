"""Every Minecraft world tool: its folder, its Skill.md contract and its tool.py agree."""

from __future__ import annotations

import pytest

from agent.paths import WORLD_TOOLS_DIR
from agent.tools import load_toolbox, standard_sources
from agent.tools.runners import import_entry

TOOLS = sorted(p.name for p in (WORLD_TOOLS_DIR / "minecraft").iterdir() if (p / "Skill.md").is_file())
EXPECTED = {
    "mc-status", "mc-look", "mc-move", "mc-observe-blocks", "mc-wait", "mc-stop", "mc-say",
    "mc-dig", "mc-place", "mc-inventory", "mc-equip", "mc-respawn", "mc-goto",
    "mc-map", "mc-explore", "mc-pillar-up", "mc-dig-stairs", "mc-tunnel",
}


@pytest.fixture(scope="module")
def toolbox():
    box = load_toolbox(standard_sources("minecraft", []))
    assert not box.errors, box.errors
    return box


def test_the_body_has_every_tool() -> None:
    assert set(TOOLS) == EXPECTED


@pytest.mark.parametrize("name", TOOLS)
def test_contract_and_code_agree(toolbox, name: str) -> None:
    spec = toolbox.tools[name]
    assert spec.type == "python" and spec.source == "minecraft" and spec.path.parent.name == name
    module = import_entry(name, spec.path.parent / "tool.py").__globals__
    args_model = module.get("Args") or module["NoArgs"]
    schema = spec.schema_hint
    assert schema is not None, f"{name} must declare its arguments"
    assert set(schema.properties) == set(args_model.model_fields), f"{name}: Skill.md and tool.py name different arguments"
    required = {k for k, f in args_model.model_fields.items() if f.is_required()}
    assert set(schema.required or []) == required


@pytest.mark.parametrize("name", TOOLS)
def test_contract_is_written_for_the_model(toolbox, name: str) -> None:
    spec = toolbox.tools[name]
    assert 20 <= len(spec.description) <= 120
    assert spec.body.strip(), f"{name}: the Skill.md body should say what comes back"
