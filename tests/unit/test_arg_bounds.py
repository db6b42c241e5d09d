"""Arguments held to their bounds: the checker names the accepted range in one line, the executor
refuses before the tool runs, the decoding schema keeps the bounds (and lists small integer spans),
and the random baseline stays inside them, lengths included."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from agent.infospace import Infospace
from agent.llm.random_policy import sample
from agent.planner.args import ENUM_SPAN, decoding_schema
from agent.tools import Executor, load_toolbox, standard_sources
from agent.tools.schema import JsonSchema, check_args

SCHEMA = JsonSchema.model_validate({
    "type": "object",
    "properties": {
        "radius": {"type": "integer", "minimum": 1, "maximum": 16},
        "duration": {"type": "number", "minimum": 0.05, "maximum": 10},
        "above": {"type": "integer", "minimum": 1},
        "below": {"type": ["number", "null"], "maximum": 16},
        "name": {"type": "string", "minLength": 1, "maxLength": 5},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "minItems": 1, "maxItems": 2},
        "one": {"type": "array", "minItems": 2},
    },
})


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ({"radius": 1000}, "argument 'radius': expected an integer from 1 to 16, got 1000"),
        ({"radius": 0}, "argument 'radius': expected an integer from 1 to 16, got 0"),
        ({"radius": "3"}, 'argument \'radius\': expected an integer from 1 to 16, got "3"'),
        ({"duration": 0.01}, "argument 'duration': expected a number from 0.05 to 10, got 0.01"),
        ({"above": 0}, "argument 'above': expected an integer of at least 1, got 0"),
        ({"below": 16.5}, "argument 'below': expected a number of at most 16, got 16.5"),
        ({"below": "x"}, 'argument \'below\': expected a number of at most 16 or null, got "x"'),
        ({"name": ""}, 'argument \'name\': expected a string of 1 to 5 characters, got ""'),
        ({"name": "stones"}, 'argument \'name\': expected a string of 1 to 5 characters, got "stones"'),
        ({"tags": []}, "argument 'tags': expected a list of 1 to 2 items, got []"),
        ({"tags": ["a", "bcde"]}, 'argument \'tags[1]\': expected a string of at most 3 characters, got "bcde"'),
        ({"one": [1]}, "argument 'one': expected a list of at least 2 items, got [1]"),
    ],
)
def test_a_value_out_of_its_limits_is_refused_with_the_limits_in_one_line(args, reason):
    assert check_args(SCHEMA, args) == reason


def test_values_at_the_limits_pass():
    args = {"radius": 16, "duration": 0.05, "above": 1, "below": None, "name": "abcde", "tags": ["abc"], "one": [1, 2]}
    assert check_args(SCHEMA, args) is None


@pytest.mark.parametrize(
    ("node", "problem"),
    [
        ({"type": "integer", "minimum": 5, "maximum": 1}, "minimum/maximum 5 > 1"),
        ({"type": "string", "minLength": 3, "maxLength": 2}, "minLength/maxLength 3 > 2"),
        ({"type": "array", "minItems": 2, "maxItems": 1}, "minItems/maxItems 2 > 1"),
        ({"type": "integer", "minimum": 1.2, "maximum": 1.5}, "no integer from 1.2 to 1.5"),
        ({"type": "string", "maxLength": -1}, "greater than or equal to 0"),
    ],
)
def test_a_schema_that_nothing_fits_does_not_load(node, problem):
    with pytest.raises(ValidationError, match=problem):
        JsonSchema.model_validate(node)


def test_the_decoding_schema_keeps_limits_and_lists_small_integer_spans():
    schema = JsonSchema.model_validate({"type": "object", "properties": {
        "radius": {"type": "integer", "minimum": 1, "maximum": 16},
        "wide": {"type": "integer", "minimum": 0, "maximum": ENUM_SPAN},
        "duration": {"type": "number", "minimum": 0.05, "maximum": 10},
        "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 2},
    }})
    props = decoding_schema(schema)["properties"]
    assert props["radius"] == {"type": "integer", "minimum": 1, "maximum": 16, "enum": list(range(1, 17))}
    assert props["wide"] == {"type": "integer", "minimum": 0, "maximum": ENUM_SPAN}
    assert props["duration"] == {"type": "number", "minimum": 0.05, "maximum": 10}
    assert props["tags"] == {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 2}


def test_the_random_baseline_stays_inside_every_limit():
    rng = random.Random(5)
    schema = decoding_schema(SCHEMA)
    values = [sample(schema, rng) for _ in range(300)]
    assert all(check_args(SCHEMA, value) is None for value in values)
    assert {len(v["tags"]) for v in values if "tags" in v} == {1, 2}
    assert sample({"type": "string", "minLength": 20}, rng) == "x" * 20


def world_executor() -> Executor:
    """The Minecraft tools with no world behind them: arguments are checked before any world use."""
    toolbox = load_toolbox(standard_sources("minecraft", []))
    assert not toolbox.errors
    return Executor(toolbox, Infospace.open(":memory:"))


def test_the_executor_refuses_radius_1000_for_mc_observe_blocks_with_the_range():
    executor = world_executor()
    result = executor.execute_action({"type": "mc-observe-blocks", "radius": 1000}).as_dict()
    assert (result["status"], result["code"]) == ("failed", "bad_args")
    assert "mc-observe-blocks: argument 'radius': expected an integer from 1 to 16, got 1000" in result["reason"]
    assert "\n" not in result["reason"]
