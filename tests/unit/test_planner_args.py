"""TOOL_ARGS_JSON: the decoding schema, parsing and repairs; and the lenient name matchers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.planner.args import decoding_schema, parse_args
from agent.planner.decide import match_name, match_task, match_yes_no
from agent.tools.schema import JsonSchema


def test_the_decoding_schema_closes_every_object_unless_it_is_open():
    schema = JsonSchema.model_validate({
        "type": "object",
        "properties": {"where": {"type": "object", "properties": {"x": {"type": "integer"}}},
                       "tags": {"type": "array", "items": {"type": "object", "additionalProperties": True}}},
    })
    out = decoding_schema(schema)
    assert out["additionalProperties"] is False
    assert out["properties"]["where"]["additionalProperties"] is False
    assert out["properties"]["tags"]["items"]["additionalProperties"] is True


def test_a_tool_without_arguments_decodes_to_an_empty_object():
    assert decoding_schema(None) == {"type": "object", "properties": {}, "additionalProperties": False}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"blocks": 3}', {"blocks": 3}),
        ('```json\n{"blocks": 3}\n```', {"blocks": 3}),
        ('Sure! {"facing": "north"} is best.', {"facing": "north"}),
        ("{'facing': 'north'}", {"facing": "north"}),
        ('{"snap": True, "pitch": None}', {"snap": True, "pitch": None}),
        ('{"blocks": 3,}', {"blocks": 3}),
        ('{"a": {"b": [1, 2', {"a": {"b": [1, 2]}}),
        ('{"text": "a } inside"} trailing', {"text": "a } inside"}),
        ('{"text": "say \\"hi\\"', {"text": 'say "hi"'}),
    ],
)
def test_args_parse_as_written_or_repaired(raw, expected):
    assert parse_args(raw) == (expected, None)


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@given(st.dictionaries(st.text(max_size=6), _VALUES, max_size=4))
def test_any_object_parses_back_whether_fenced_wrapped_or_cut_short(args):
    text = json.dumps(args)
    assert parse_args(text) == (args, None)
    assert parse_args(f"```json\n{text}\n```") == (args, None)
    assert parse_args(f"Arguments: {text} done.") == (args, None)
    if text.endswith("}}"):  # an object cut before its last brace is closed again
        assert parse_args(text[:-1]) == (args, None)


@pytest.mark.parametrize(("raw", "problem"), [("[1, 2]", "must be a JSON object, got list"), ("blocks=3", "not JSON"),
                                             ("", "is empty"), (" \t", "is empty")])
def test_args_that_cannot_be_an_object_say_why(raw, problem):
    args, reason = parse_args(raw)
    assert args is None and problem in reason


def test_names_match_leniently_but_only_valid_ones():
    choices = ["mc-look", "mc-move", "think"]
    assert match_name("  `mc-look`.", choices) == "mc-look"
    assert match_name("MC-MOVE {\"blocks\": 2}", choices) == "mc-move"
    assert match_name("mc-jump", choices) is None


def test_tasks_match_by_step_number_or_outcome():
    choices = ["[METHOD: STEP 1] ALIGN", "[METHOD: STEP 2] OBSERVE", "TERMINATION (DISCOVERY)"]
    assert match_task("[METHOD: STEP 2] look around", choices) == "[METHOD: STEP 2] OBSERVE"
    assert match_task("go to step 1", choices) == "[METHOD: STEP 1] ALIGN"
    assert match_task("TERMINATION (discovery)", choices) == "TERMINATION (DISCOVERY)"
    assert match_task("TERMINATION (SUCCESS)", choices) is None
    assert match_task("STEP 9", choices) is None


def test_done_answers_are_yes_or_no():
    assert [match_yes_no(t, ["yes", "no"]) for t in ("Yes.", "no, not yet", "true", "maybe", "")] == [
        "yes", "no", "yes", None, None]
