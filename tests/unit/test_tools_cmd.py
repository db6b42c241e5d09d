"""`mcagent tools`: lists every tool with type and source; a bad file is one line and the rest still list."""

from __future__ import annotations

import json

import pytest

from agent.cli import main
from agent.config import load_config
from agent.tools import load_toolbox, standard_sources
from agent.tools.primitives import PRIMITIVES
from tool_testing import FIXTURE_TOOLS, MIXED_TOOLS, fixture_toolbox


@pytest.fixture(autouse=True)
def no_user_config(tmp_path, monkeypatch):
    # Keep a developer's own mcagent.yaml out of the test, and skills/ too: its explore-area
    # would clash with the fixture of that name.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "mcagent.yaml").write_text("tool_folders: []\n")


def test_lists_every_tool_with_its_type_and_source(capsys):
    assert main(["tools", "--tools-dir", str(FIXTURE_TOOLS)]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:3] for line in out.splitlines() if line.startswith("  ")}
    config = load_config().config  # what the command loads: core, the world's tools, skills, --tools-dir
    expected = load_toolbox(standard_sources(config.world, config.tool_folders, None, [FIXTURE_TOOLS])).tools
    assert set(rows) == set(expected)
    for name, spec in expected.items():
        assert rows[name] == [spec.type, spec.source], name
    assert out.index("#INFOSPACE CORE") < out.index("#SKILLS")
    assert out.splitlines()[-1] == f"{len(expected)} tools, 0 errors"


def test_a_malformed_file_is_one_error_line_and_the_others_still_list(capsys):
    assert main(["tools", "--tools-dir", str(MIXED_TOOLS)]) == 1
    captured = capsys.readouterr()
    assert "alpha-tips" in captured.out and "zeta-tips" in captured.out and "broken" not in captured.out
    assert captured.err.splitlines() == [
        f"mcagent tools: {MIXED_TOOLS / 'broken' / 'Skill.md'}:5: unknown key 'colour' (accepted: name, type, "
        "description, when_to_use, examples, resumable, invalidates, hidden, max_steps, timeout_s, slots, outputs, complete_when, "
        "needs, achieves, schema_hint)"
    ]


def test_json_carries_each_methods_steps_and_outcomes(capsys):
    assert main(["tools", "--json", "--tools-dir", str(FIXTURE_TOOLS)]) == 0
    listed = json.loads(capsys.readouterr().out)
    tools = {tool["name"]: tool for tool in listed["tools"]}
    assert listed["errors"] == [] and set(PRIMITIVES) <= set(tools)
    explore = tools["explore-area"]
    assert (explore["type"], explore["source"]) == ("method", "skills")
    assert explore["steps"] == [
        {"number": 1, "title": "ALIGN TO CARDINAL"},
        {"number": 2, "title": "OBSERVE FORWARD"},
        {"number": 3, "title": "MOVE FORWARD"},
        {"number": 4, "title": "CHECK COMPLETION"},
    ]
    assert explore["outcomes"] == ["SUCCESS", "FAILED"]
    assert "steps" not in tools["say"]


def test_catalog_prints_what_the_planner_reads(capsys):
    assert main(["tools", "--catalog"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('Call a tool as {"type": NAME') and "#INFOSPACE CORE" in out


def test_tool_folders_from_the_config_file_are_relative_to_it(tmp_path, capsys):
    (tmp_path / "mcagent.yaml").write_text(f"tool_folders: [{MIXED_TOOLS}]\n")
    assert main(["tools"]) == 1
    assert "alpha-tips" in capsys.readouterr().out


def test_a_missing_tools_dir_is_reported(tmp_path, capsys):
    assert main(["tools", "--tools-dir", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err.strip().endswith("nowhere: tools folder does not exist")
