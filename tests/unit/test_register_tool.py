"""@register_tool (agent/tools/registry.py): the second front door to the same ToolSpec, found in
configured modules and entry points, run by the executor with the slot and is-complete rules."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from agent.cli import main
from agent.infospace import Infospace
from agent.paths import SKILLS_DIR
from agent.tools import Executor, ToolSource, load_toolbox
from agent.tools import loader
from agent.tools.frontmatter import parse_skill
from agent.tools.loader import CORE_TOOLS_DIR
from agent.tools.registry import register_tool
from tool_testing import FIXTURES, run

DECORATED = FIXTURES / "decorated"
SLOTS = [
    {"name": "block", "type": "str", "description": "a block name", "prompt": "Which block?", "required": True,
     "verified": False},
    {"name": "depth", "type": "int", "enum": [1, 2, 3], "description": "blocks down"},
]
OUTPUTS = [{"name": "dug", "type": "int", "description": "blocks dug"}]
SKILL_MD = """---
name: dig-down
type: python
description: "Dig down a few blocks"
slots:
  - {name: block, type: str, description: "a block name", prompt: "Which block?", required: true, verified: false}
  - {name: depth, type: int, enum: [1, 2, 3], description: "blocks down"}
outputs:
  - {name: dug, type: int, description: "blocks dug"}
complete_when: data.dug == args.depth
examples:
  - {block: dirt, depth: 2}
invalidates: [position]
timeout_s: 30
---

Digs straight down through the block named.
"""


def dig_down(block: str, depth: int = 1) -> dict:
    """Digs straight down through the block named."""
    return {"dug": depth}


def test_a_decorated_function_and_a_skill_md_make_the_same_spec(tmp_path):
    folder = tmp_path / "dig-down"
    folder.mkdir()
    (folder / "Skill.md").write_text(SKILL_MD)
    (folder / "tool.py").write_text("def tool(input_value=None, **kwargs):\n    return {}\n")
    from_file = parse_skill(SKILL_MD, folder / "Skill.md", "skills")
    decorated = register_tool("Dig down a few blocks", SLOTS, OUTPUTS, "data.dug == args.depth",
                              examples=[{"block": "dirt", "depth": 2}], invalidates=["position"], timeout_s=30)(dig_down)
    from_code = decorated.spec("skills", "test_register_tool:dig_down")
    origin = {"path", "entry"}  # where each came from, the only difference
    assert from_code.model_dump(exclude=origin) == from_file.model_dump(exclude=origin)
    assert from_code.slots[0].verified is False and from_code.schema_hint.required == ["block"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "Dig Down"}, "String should match pattern"),
    ({"is_complete": "data.dug = 1"}, "use '==' to compare"),
    ({"slots": [*SLOTS, {"name": "speed", "type": "int"}]}, "slot 'speed' is not a parameter of dig_down()"),
    ({"slots": SLOTS[1:]}, "dig_down() needs 'block': give it a slot with required: true"),
    ({"slots": [{"name": "block", "type": "text", "required": True}]}, "Input should be 'str'"),
    ({"timeout_s": 0}, "greater than 0"),
])
def test_the_decorator_refuses_at_import_what_a_loader_would(kwargs, message):
    with pytest.raises(ValueError, match=None) as caught:
        register_tool("Dig down a few blocks", **{"slots": SLOTS, **kwargs})(dig_down)
    assert message in str(caught.value)


def test_a_decorated_function_still_calls_as_the_function():
    decorated = register_tool("Dig down a few blocks", SLOTS)(dig_down)
    assert decorated("dirt", depth=3) == {"dug": 3} and decorated.__doc__ == dig_down.__doc__


@pytest.fixture
def ex(monkeypatch):
    monkeypatch.syspath_prepend(str(DECORATED))
    sources = [ToolSource(label="core", folder=CORE_TOOLS_DIR, required=True),
               ToolSource(label="decorated", module="decorated_tools", required=True)]
    box = load_toolbox(sources)
    assert not box.errors, box.errors
    executor = Executor(box, Infospace.open(":memory:"))
    executor.heard("stone bedrock")
    import decorated_tools
    decorated_tools.CALLS.clear()
    yield executor
    executor.infospace.close()


def test_a_module_source_adds_its_decorated_functions_as_python_tools(ex):
    decorated = {name: spec for name, spec in ex.toolbox.tools.items() if spec.source == "decorated"}
    assert sorted(decorated) == ["count-tools", "mine", "split-words"]
    spec = decorated["mine"]
    assert (spec.type, spec.entry, spec.origin) == ("python", "decorated_tools:mine", "decorated_tools:mine")
    assert spec.path == DECORATED / "decorated_tools.py" and spec.body == "Pretends to mine: bedrock never comes off."
    assert spec.outputs[0].name == "mined"


def test_the_executor_runs_a_decorated_tool_and_keeps_its_data(ex):
    result = run(ex, "mine", block="stone", tool="pickaxe")
    assert result["status"] == "success" and result["data"] == {"block": "stone", "mined": True}
    assert result["resource_id"] == "Note_1"
    assert run(ex, "split-words", text="a b c")["data"] == ["a", "b", "c"]
    assert run(ex, "count-tools")["data"] == len(ex.toolbox.tools)  # it asked for the executor


def test_is_complete_false_is_incomplete_and_keeps_the_return(ex):
    result = run(ex, "mine", block="bedrock")
    assert (result["status"], result["code"]) == ("failed", "incomplete")
    assert result["reason"].startswith("incomplete: expected <lambda>(data) to be true; the tool said: ")
    assert result["data"] == {"block": "bedrock", "mined": False}
    assert run(ex, "split-words", text="   ")["code"] == "incomplete"  # a string check, as in a Skill.md


def test_a_missing_required_slot_or_a_value_outside_its_enum_never_calls_the_function(ex):
    import decorated_tools
    asked = run(ex, "mine", tool="hand")
    assert (asked["code"], asked["reason"]) == ("needs_input", "Which block should be mined?")
    refused = run(ex, "mine", block="stone", tool="shovel")
    assert refused["code"] == "bad_args" and 'expected one of "hand", "pickaxe"' in refused["reason"]
    assert decorated_tools.CALLS == []


def test_a_module_that_cannot_be_imported_or_holds_no_tool_is_one_load_error_each(monkeypatch):
    monkeypatch.syspath_prepend(str(DECORATED))
    box = load_toolbox([ToolSource(label="x", module="no_such_module_here"),
                        ToolSource(label="x", module="decorated_tools:NOT_A_TOOL"),
                        ToolSource(label="x", module="decorated_tools:mine")])
    assert [str(e) for e in box.errors] == [
        "no_such_module_here: cannot import: ModuleNotFoundError: No module named 'no_such_module_here'",
        "decorated_tools: decorated_tools:NOT_A_TOOL holds no @register_tool function",
    ]
    assert list(box.tools) == ["mine"]


def test_installed_entry_points_become_sources_labelled_by_their_package(monkeypatch):
    point = SimpleNamespace(name="extra", value="decorated_tools", dist=SimpleNamespace(name="mcagent-extra"))
    monkeypatch.setattr(loader, "entry_points", lambda group: [point] if group == "mcagent.tools" else [])
    sources = loader.standard_sources("minecraft", [], modules=["decorated_tools:mine"])
    assert [(s.label, s.module) for s in sources if s.module] == [
        ("decorated_tools", "decorated_tools:mine"), ("mcagent-extra", "decorated_tools")]


def test_tools_json_lists_every_kind_with_where_it_came_from(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.syspath_prepend(str(DECORATED))
    (tmp_path / "mcagent.yaml").write_text(f"tool_folders: [{SKILLS_DIR}]\ntool_modules: [decorated_tools]\n")
    assert main(["tools", "--json"]) == 0
    tools = {tool["name"]: tool for tool in json.loads(capsys.readouterr().out)["tools"]}
    assert {tool["type"] for tool in tools.values()} == {"primitive", "python", "llm", "instruction", "method"}
    assert tools["mine"]["origin"] == "decorated_tools:mine" and tools["mine"]["source"] == "decorated_tools"
    assert tools["describe-note"]["origin"] == str(SKILLS_DIR / "describe-note")
    assert tools["mc-equip"]["slots"][0]["verified"] is False
