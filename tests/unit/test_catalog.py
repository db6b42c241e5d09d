"""The catalog the planner reads: grouped by source, world tools first, compact schemas, method marker."""

from __future__ import annotations

import pytest

from agent.tools import ToolSource, catalog_entries, catalog_text, load_toolbox
from agent.tools.loader import CORE_TOOLS_DIR
from tool_testing import FIXTURE_TOOLS


@pytest.fixture
def toolbox(tmp_path):
    world = tmp_path / "minecraft" / "mc-look"
    world.mkdir(parents=True)
    (world / "Skill.md").write_text(
        '---\nname: mc-look\ntype: instruction\ndescription: "Turn the head"\n'
        "slots:\n  - {name: yaw, type: float, required: true}\n---\nLook around.\n"
    )
    return load_toolbox(
        [
            ToolSource(label="core", folder=CORE_TOOLS_DIR),
            ToolSource(label="minecraft", folder=tmp_path / "minecraft"),
            ToolSource(label="skills", folder=FIXTURE_TOOLS),
        ]
    )


def test_world_tools_come_first_then_core_then_skills(toolbox):
    text = catalog_text(toolbox)
    headers = [line for line in text.splitlines() if line.startswith("#")]
    assert headers == ["#MINECRAFT", "#INFOSPACE CORE", "#SKILLS"]
    assert text.splitlines()[0].startswith('Call a tool as {"type": NAME')


def test_entries_show_description_compact_args_and_the_method_marker(toolbox):
    lines = catalog_text(toolbox).splitlines()
    assert "- mc-look: Turn the head (args: {yaw: number})" in lines
    head = "- head: The first n notes of a collection, as a new collection. (args: {target: string, n: integer >=0})"
    explore = "- explore-area [method]: Systematically explores an area by checking cardinal directions (args: {})"
    assert head in lines and explore in lines


def test_hidden_tools_stay_out_of_the_catalog(toolbox):
    assert "counted" in toolbox.tools and "counted" not in catalog_text(toolbox)
    assert "counted" not in catalog_entries(toolbox)


def test_entries_in_the_seed_format(toolbox):
    entries = catalog_entries(toolbox)
    assert list(entries)[0] == "mc-look"
    assert entries["mc-look"] == {
        "description": "Turn the head",
        "source": "minecraft",
        "schema_hint": {"type": "object", "properties": {"yaw": {"type": "number"}}, "required": ["yaw"]},
    }
    assert entries["explore-area"] == {
        "description": "Systematically explores an area by checking cardinal directions",
        "source": "skills",
        "schema_hint": None,
        "type": "method",
    }
    assert "type" not in entries["think"]
