"""The random baseline: values inside the schema, the planner end to end on it, seeds, specs."""

from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from agent.config.model import AgentConfig
from agent.errors import ConfigError
from agent.llm import open_backend, parse_spec
from agent.llm.random_policy import RandomBackend, sample
from agent.tools.schema import JsonSchema, check_args
from agent.trace.schema import MethodStep, OuterStep, RunStart
from support.planning import rig

SCHEMA = {
    "type": "object",
    "properties": {
        "distance": {"type": "integer", "minimum": 0, "maximum": 3},
        "ratio": {"type": "number", "minimum": 0.5, "maximum": 0.6},
        "above": {"type": "integer", "minimum": 100},
        "free": {"type": "integer"},
        "to": {"enum": ["text", "json"]},
        "flag": {"type": "boolean"},
        "name": {"type": "string"},
        "names": {"type": "array", "items": {"type": "string"}},
        "content": {"type": ["string", "object", "array", "number", "boolean"]},
        "where": {"type": "object", "properties": {"x": {"type": "integer", "maximum": -50}}, "required": ["x"]},
        "anything": {},
    },
    "required": ["distance", "ratio", "above", "free", "to", "flag", "name", "names", "where"],
    "additionalProperties": False,
}


def test_samples_fit_the_schema_and_cover_it():
    rng = random.Random(3)
    values = [sample(SCHEMA, rng) for _ in range(200)]
    schema = JsonSchema.model_validate(SCHEMA)
    assert all(check_args(schema, value) is None for value in values)
    assert {v["distance"] for v in values} == {0, 1, 2, 3} and {v["to"] for v in values} == {"text", "json"}
    assert all(100 <= v["above"] <= 116 and -8 <= v["free"] <= 8 and -66 <= v["where"]["x"] <= -50 for v in values)
    assert {len(v["names"]) for v in values} == {0, 1, 2} and any("content" not in v for v in values)
    assert all(v.get("anything", {}) == {} for v in values)


def test_any_of_picks_a_branch_and_an_unknown_node_is_an_empty_object():
    rng = random.Random(0)
    picked = {json.dumps(sample({"anyOf": [{"type": "boolean"}, {"type": "null"}]}, rng)) for _ in range(50)}
    assert picked == {"true", "false", "null"}
    assert sample({"oneOf": [{"enum": ["only"]}]}, rng) == "only" and sample({}, rng) == {}


def run_planner(seed: int):
    r = rig(None, backend=RandomBackend(seed), max_steps=4)
    result = r.run()
    steps = [e for e in r.trace.events if isinstance(e, OuterStep | MethodStep)]
    return r, result, steps


@pytest.mark.parametrize("seed", range(8))  # seed 3 runs a method, others end at a random DONE
def test_the_planner_runs_end_to_end_on_valid_random_choices(seed):
    r, result, steps = run_planner(seed)
    assert result.outcome in ("done", "max_steps") and steps
    offered = {e.plan: set(e.tools) for e in r.trace.events if isinstance(e, RunStart)}
    for step in steps:
        assert step.tool in (offered[step.plan] if isinstance(step, OuterStep) else r.planner.toolbox.tools)
        args = {k: v for k, v in step.action.items() if k not in ("type", "_inner_loop")}
        assert check_args(r.planner.toolbox.tools[step.tool].schema_hint, args) is None, step
        assert step.note is None
    selects = [call for call in r.backend.calls if call.kind == "select"]
    assert selects and all(call.reply in call.choices for call in selects)
    usage = r.backend.usage
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0 and r.backend.name == f"random:{seed}"


def test_the_same_seed_chooses_the_same_and_another_seed_differs():
    def chosen(seed):
        return [(step.tool, json.dumps(step.action)) for step in run_planner(seed)[2]]

    assert chosen(5) == chosen(5)
    assert chosen(5) != chosen(6)


def test_free_text_is_a_short_phrase_cut_at_stop_strings():
    backend = RandomBackend(1)
    assert backend.complete("Summarize: ...", stop=[" "]) in {"look", "try", "keep", "check"}


def test_specs_name_the_seed():
    assert (parse_spec("random").kind, parse_spec("random").target) == ("random", "0")
    assert parse_spec("random:7").target == "7" and parse_spec("random:-2").target == "-2"
    assert open_backend("random:7").name == "random:7" and open_backend("random").name == "random:0"
    assert AgentConfig.model_validate({"llm": "random:7"}).llm == "random:7"
    with pytest.raises(ValidationError, match="random\\[:SEED\\]"):
        AgentConfig.model_validate({"llm": "random:x"})


@pytest.mark.parametrize("text", ["random:x", "random:", "random:1.5"])
def test_a_seed_that_is_not_an_integer_is_a_one_line_config_error(text):
    with pytest.raises(ConfigError, match="random: the seed must be an integer") as raised:
        parse_spec(text)
    assert "\n" not in str(raised.value)
