"""Skill.md parsing: strict frontmatter, one error naming file and line, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.tools.frontmatter import ToolFileError, parse_skill
from agent.tools.spec import ToolSpec

PATH = Path("skills/probe/Skill.md")
INSTRUCTION = "name: probe\ntype: instruction\ndescription: d\n"


def skill(front: str, body: str = "Body text.") -> str:
    return f"---\n{front.strip()}\n---\n\n{body}\n"


def parse(text: str, path: Path = PATH, source: str = "skills") -> ToolSpec:
    return parse_skill(text, path, source)


def error_of(text: str, path: Path = PATH, source: str = "skills") -> str:
    with pytest.raises(ToolFileError) as e:
        parse(text, path, source)
    return str(e.value)


def test_a_full_frontmatter_loads_into_a_spec():
    spec = parse(
        skill(
            """
name: probe
type: instruction
description: "Probe the area"
examples: [{type: probe}]
resumable: yes  # YAML's yes is true
invalidates: [position]
hidden: true
""",
            "How to probe.",
        )
    )
    assert (spec.name, spec.type, spec.source, spec.body) == ("probe", "instruction", "skills", "How to probe.")
    assert spec.resumable and spec.hidden and spec.invalidates == ["position"]
    assert ToolSpec.model_validate_json(spec.model_dump_json()) == spec


def test_slots_and_schema_hint_load_into_one_schema():
    head = "name: probe\ntype: llm\ndescription: d\n"
    by_slots = parse(skill(head + "slots:\n  - {name: text, type: str, required: true}"))
    by_hint = parse(skill(head + "schema_hint:\n  properties: {text: {type: string}}\n  required: [text]"))
    expected = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    assert by_slots.schema_hint.dump() == expected
    assert by_hint.schema_hint.required == ["text"]


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("no fence", ":1:", "expected '---' on the first line"),
        ("---\nname: probe\n", ":2:", "never closed"),
        ("---\nname: [probe\n---\n", ":2:", "invalid YAML"),
        ("---\n- a list\n---\n", ":2:", "expected the frontmatter to be 'key: value' lines"),
        ("---\n---\n", ":2:", "expected the frontmatter to be 'key: value' lines"),
        (skill("name: probe\ntype: instruction"), ":1:", "missing required key 'description'"),
        (skill("name: probe\ndescription: d"), ":1:", "missing required key 'type' (one of: primitive, python, llm"),
        (skill(INSTRUCTION + "colour: red"), ":5:", "unknown key 'colour' (accepted:"),
        (skill("name: probe\ntype: skill\ndescription: d"), ":3:", "type: Input should be 'primitive'"),
        (skill("name: probe\ntype: instruction\ndescription: ''"), ":4:", "description: String should have at least 1"),
        (skill("name: other\ntype: instruction\ndescription: d"), ":2:", "must equal its folder's name 'probe'"),
        (skill("name: probe\nname: probe\ntype: instruction"), ":3:", "key 'name' given twice (first on line 2)"),
        (skill(INSTRUCTION + "3: x"), ":5:", "expected a key such as name"),
        (skill("name: probe\ntype: instruction\ndescription: d", ""), ":3:", "needs a body"),
        (skill("name: probe\ntype: llm\ndescription: d", " "), ":3:", "the prompt template"),
        (skill("name: probe\ntype: python\ndescription: d"), ":3:", "needs tool.py beside its Skill.md"),
        (skill("name: probe\ntype: primitive\ndescription: d"), ":3:", "reserved for the built-in"),
        (skill(INSTRUCTION + "max_steps: 5"), ":5:", "max_steps applies only to"),
        (skill(INSTRUCTION + "hidden: maybe"), ":5:", "hidden: Input should be a valid"),
        (
            skill("name: probe\ntype: llm\ndescription: d\nslots: [{name: a, type: str}]\nschema_hint: {type: object}"),
            ":1:",
            "not both",
        ),
        (skill("name: probe\ntype: llm\ndescription: d\nschema_hint: {type: array}"), ":5:", "must describe an object"),
        (
            skill("name: probe\ntype: llm\ndescription: d\nslots: [{name: type, type: str}]"),
            ":1:",
            "argument name 'type' is reserved",
        ),
        (
            skill("name: probe\ntype: llm\ndescription: d\nslots: [{name: a, type: str, colour: p}]"),
            ":5:",
            "unknown key 'slots.0.colour' (accepted: name, type, description, prompt, required, verified, enum)",
        ),
        (
            skill("name: probe\ntype: llm\ndescription: d\nschema_hint: {properties: {a: {type: strng}}}"),
            ":5:",
            "schema_hint.properties.a.type: Input should be 'object'",
        ),
        ("---\nname: probe\nwhen: 2001-13-40\n---\n", ":1:", "invalid YAML"),
    ],
)
def test_each_problem_is_one_error_naming_file_line_and_expectation(text, where, message):
    error = error_of(text)
    assert error.startswith(f"{PATH}{where} ")
    assert message in error
    assert "\n" not in error


def test_python_tools_need_their_tool_py(tmp_path):
    folder = tmp_path / "probe"
    folder.mkdir()
    text = skill("name: probe\ntype: python\ndescription: d")
    assert "tool.py" in error_of(text, folder / "Skill.md")
    (folder / "tool.py").write_text("def tool(input_value=None, **kwargs):\n    return None\n")
    assert parse(text, folder / "Skill.md").type == "python"


def test_primitives_load_from_the_core_source():
    assert parse(skill("name: probe\ntype: primitive\ndescription: d"), source="core").type == "primitive"


@pytest.mark.parametrize("schema", ["schema_hint: {type: object}", "slots: [{name: x, type: str}]"])
def test_a_primitive_states_no_arguments_its_model_does(schema):
    key = schema.split(":")[0]
    message = error_of(skill(f"name: probe\ntype: primitive\ndescription: d\n{schema}"), source="core")
    assert message.startswith(f"{PATH}:5: {key} is not for a primitive: its arguments model")


def test_a_byte_order_mark_is_ignored():
    assert parse("\ufeff" + skill("name: probe\ntype: instruction\ndescription: d")).name == "probe"


FRONT_KEYS = st.sampled_from(
    ["name", "type", "description", "examples", "resumable", "invalidates", "hidden", "max_steps", "slots",
     "schema_hint", "colour"]
)
FRONT_VALUES = st.one_of(
    st.sampled_from(["probe", "method", "python", "llm", "instruction", "primitive", "yes", "[a]", "{type: object}"]),
    st.text(max_size=12),
    st.integers(),
)


def _frontmatter_text(pairs: list[tuple[str, object]], body: str) -> str:
    lines = [f"{key}: {value}" for key, value in pairs]
    return "---\n" + "\n".join(lines) + "\n---\n" + body


@settings(derandomize=True, deadline=None, max_examples=300)
@given(
    st.one_of(
        st.text(max_size=200),
        st.builds(_frontmatter_text, st.lists(st.tuples(FRONT_KEYS, FRONT_VALUES), max_size=8), st.text(max_size=60)),
        st.builds(lambda doc, body: "---\n" + yaml.safe_dump(doc) + "---\n" + body,
                  st.dictionaries(FRONT_KEYS, st.one_of(st.none(), st.booleans(), st.text(max_size=8), st.integers()),
                                  max_size=6),
                  st.text(max_size=40)),
    )
)
def test_any_input_gives_a_spec_or_one_clear_error(text):
    try:
        spec = parse(text)
    except ToolFileError as e:
        message = str(e)
        assert message.startswith(f"{PATH}:") and "\n" not in message.strip()
        assert e.error.line is None or 1 <= e.error.line <= max(1, len(text.splitlines()) + 1)
        return
    assert isinstance(spec, ToolSpec) and spec.name == "probe"
