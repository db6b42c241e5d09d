"""The argument schemas the planner reads: every shipped tool's (the core primitives, the world's
tools, the skills) comes from one arguments model, and is pinned as decoding and the catalog see
it, property order included. A change to a tool's arguments shows here as a diff to review; to
take it, write the file again with `python tests/unit/test_tool_schemas.py`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from agent.paths import SKILLS_DIR, WORLD_TOOLS_DIR
from agent.tools import Toolbox, ToolSource, load_toolbox
from agent.tools.frontmatter import PYTHON_ENTRY
from agent.tools.loader import CORE_TOOLS_DIR
from agent.tools.model_schema import model_schema
from agent.tools.primitives import PRIMITIVES
from agent.tools.runners import args_model

PINNED = Path(__file__).resolve().parent.parent / "fixtures" / "tool_schemas.json"


def shipped_toolbox() -> Toolbox:
    box = load_toolbox([ToolSource(label="core", folder=CORE_TOOLS_DIR, required=True),
                        ToolSource(label="minecraft", folder=WORLD_TOOLS_DIR / "minecraft", required=True),
                        ToolSource(label="skills", folder=SKILLS_DIR, required=True)])
    assert box.errors == []
    return box


def shipped_schemas() -> dict[str, dict | None]:
    box = shipped_toolbox()
    return {name: spec.schema_hint.dump() if spec.schema_hint else None for name, spec in sorted(box.tools.items())}


@pytest.fixture(scope="module")
def schemas() -> dict[str, dict | None]:
    return shipped_schemas()


def test_no_skill_md_of_code_states_arguments_every_schema_is_its_models():
    """A primitive's or a python tool's arguments live once, in its model; its Skill.md is prose."""
    coded = [spec for spec in shipped_toolbox().tools.values() if spec.type in ("primitive", "python")]
    assert {spec.type for spec in coded} == {"primitive", "python"} and len(coded) > len(PRIMITIVES)
    for spec in coded:
        front = yaml.safe_load(spec.path.read_text(encoding="utf-8").split("---")[1])
        assert not {"schema_hint", "slots"} & set(front), spec.path
        model = PRIMITIVES[spec.name].args if spec.type == "primitive" else \
            args_model(spec.name, spec.path.parent / PYTHON_ENTRY)
        assert spec.schema_hint == (model_schema(model) if model else None), spec.name  # none: no arguments


def pinned_schemas() -> dict[str, dict | None]:
    return json.loads(PINNED.read_text(encoding="utf-8"))


def test_every_shipped_tool_is_pinned(schemas):
    assert sorted(schemas) == sorted(pinned_schemas())


@pytest.mark.parametrize("name", sorted(pinned_schemas()))
def test_the_schema_is_the_pinned_one_in_its_order(schemas, name):
    assert json.dumps(schemas.get(name), indent=1) == json.dumps(pinned_schemas()[name], indent=1)


if __name__ == "__main__":
    PINNED.write_text(json.dumps(shipped_schemas(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
