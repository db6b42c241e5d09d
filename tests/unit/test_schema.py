"""Argument schemas: the JSON-schema subset, typed slots, the checker's reasons, the compact form."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from agent.tools.schema import JsonSchema, Slot, check_args, compact, slots_schema

SCHEMA = JsonSchema.model_validate(
    {
        "type": "object",
        "properties": {
            "target": {"type": "string", "description": "a note: Note_N or $name"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "to": {"enum": ["text", "json"]},
            "fields": {"type": "array", "items": {"type": "string"}},
            "where": {"type": "object", "properties": {"x": {"type": "number"}}},
            "content": {"type": ["string", "object"]},
        },
        "required": ["target"],
    }
)


def test_args_that_fit_pass():
    args = {"target": "Note_1", "limit": 5, "to": "json", "fields": ["a"], "where": {"x": 1.5}, "content": {}}
    assert check_args(SCHEMA, args) is None


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ({}, "missing required argument 'target' (a note: Note_N or $name)"),
        ({"target": 3}, "argument 'target': expected a string, got 3 (a note: Note_N or $name)"),
        ({"target": "a", "limt": 1}, "unknown argument 'limt' (accepted: target, limit, to, fields, where, content)"),
        ({"target": "a", "limit": True}, "argument 'limit': expected an integer from 1 to 100, got true"),
        ({"target": "a", "limit": 2.0}, "argument 'limit': expected an integer from 1 to 100, got 2.0"),
        ({"target": "a", "limit": 0}, "argument 'limit': expected an integer from 1 to 100, got 0"),
        ({"target": "a", "limit": 101}, "argument 'limit': expected an integer from 1 to 100, got 101"),
        ({"target": "a", "to": "xml"}, 'argument \'to\': expected one of "text", "json", got "xml"'),
        ({"target": "a", "fields": ["a", 2]}, "argument 'fields[1]': expected a string, got 2"),
        ({"target": "a", "where": {"x": "1"}}, "argument 'where.x': expected a number, got \"1\""),
        ({"target": "a", "where": {"y": 1}}, "unknown argument 'where.y' (accepted: x)"),
        ({"target": "a", "content": 5}, "argument 'content': expected a string or an object, got 5"),
    ],
)
def test_bad_args_name_the_field_and_what_it_accepts(args, reason):
    assert check_args(SCHEMA, args) == reason


def test_a_tool_without_a_schema_takes_no_arguments():
    assert check_args(None, {}) is None
    assert check_args(None, {"x": 1}) == "unknown argument 'x': this tool takes no arguments"


def test_open_objects_accept_any_keys():
    schema = JsonSchema.model_validate({"type": "object", "additionalProperties": True})
    assert check_args(schema, {"anything": 1}) is None
    assert schema.dump() == {"type": "object", "additionalProperties": True}


def test_unsupported_keywords_and_stray_required_names_are_rejected():
    with pytest.raises(ValidationError, match="pattern"):
        JsonSchema.model_validate({"type": "string", "pattern": "a+"})
    with pytest.raises(ValidationError, match="not in properties"):
        JsonSchema.model_validate({"type": "object", "required": ["x"]})


def test_slots_become_an_object_schema():
    slots = [
        Slot(name="x", type="int", description="blocks east", required=True),
        Slot(name="mode", type="str", enum=["walk", "sprint"]),
        Slot(name="extra", type="any"),
    ]
    schema = slots_schema(slots)
    assert schema.required == ["x"]
    assert schema.properties["x"].type == "integer" and schema.properties["extra"].type is None
    assert check_args(schema, {"x": 1, "mode": "run"}).startswith("argument 'mode': expected one of")
    assert check_args(schema, {"mode": "walk"}) == "missing required argument 'x' (blocks east)"


def test_slot_names_must_be_unique():
    with pytest.raises(ValueError, match="repeated: x"):
        slots_schema([Slot(name="x", type="int"), Slot(name="x", type="str")])


def test_compact_form_for_the_catalog():
    assert compact(SCHEMA) == (
        '{target: string, limit?: integer 1..100, to?: "text"|"json", fields?: list of string, '
        "where?: {x?: number}, content?: string|object}"
    )
    assert compact(None) == "{}"
