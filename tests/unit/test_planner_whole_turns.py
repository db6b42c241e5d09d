"""The planner on a chat API (Capabilities.whole_turns): one JSON reply per decision, held to a
schema where the backend can, parsed and retried once where it cannot."""

from __future__ import annotations

import json

import pytest
import sglang as sgl

from agent.llm import LlmError
from agent.llm.replay import ReplayBackend
from agent.llm.scripted import ScriptedBackend
from agent.planner import prompts
from agent.trace.schema import MethodStep, OuterStep
from support.planning import rig


def chat_rig(replies: list[dict | str], *, constrained: bool = True, **options):
    script = [r if isinstance(r, str) else json.dumps(r) for r in replies]
    return rig(None, backend=ScriptedBackend(script, constrained=constrained, whole_turns=True), **options)


def act(tool: str, args: dict | None = None, thoughts: str = "thinking") -> dict:
    return {"THOUGHTS": thoughts, "TOOL_NAME": tool, "TOOL_ARGS_JSON": args or {}}


def test_each_decision_is_one_call_held_to_a_schema_with_one_alternative_per_tool():
    r = chat_rig([act("measure", {"distance": 3}), {"DONE": "yes", "NEXT_TASK": "nothing left"}])
    result = r.run()
    assert (result.outcome, result.steps) == ("done", 1)
    action, reflect = r.backend.calls
    assert action.kind == reflect.kind == "gen"
    schema = json.loads(action.json_schema)
    by_tool = {alt["properties"]["TOOL_NAME"]["const"]: alt for alt in schema["anyOf"]}
    assert set(by_tool) == set(r.planner.toolbox.tools) - {t for t, s in r.planner.toolbox.tools.items() if s.hidden}
    distance = by_tool["measure"]["properties"]["TOOL_ARGS_JSON"]["properties"]["distance"]
    assert distance["type"] == "integer"
    assert json.loads(reflect.json_schema)["properties"]["DONE"] == {"enum": ["yes", "no"]}
    [step] = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert (step.tool, step.action["distance"], step.done, step.thoughts) == ("measure", 3, True, "thinking")


def test_the_system_prompt_asks_for_json_turns_and_the_conversation_holds_them():
    r = chat_rig([act("think", {"thought": "hm"}), {"DONE": "yes", "NEXT_TASK": "stop"}])
    r.run()
    first, last = r.prompts()
    assert prompts.system(thoughts=True, whole_turns=True) in first
    assert '"TOOL_NAME": "think"' in last  # the model's own turn, as it wrote it


def test_an_unusable_reply_gets_one_corrective_retry_where_nothing_holds_the_reply():
    r = chat_rig(["I would measure", act("measure", {"distance": 2}), '{"DONE": "maybe"}',
                  {"DONE": "yes", "NEXT_TASK": "x"}], constrained=False)
    result = r.run()
    assert result.outcome == "done" and len(r.backend.calls) == 4
    assert "That reply cannot be used: the reply is not a JSON object" in r.backend.calls[1].prompt
    [step] = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert "retry accepted" in step.note and "DONE must be yes or no, got 'maybe'" in step.note


def test_a_reply_still_unusable_after_the_retry_is_a_failed_step_not_a_choice():
    r = chat_rig(["nothing", '{"TOOL_NAME": "fly"}', {"DONE": "no", "NEXT_TASK": "x"}], constrained=False,
                 max_steps=1)
    result = r.run()
    assert result.outcome == "max_steps"
    [step] = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert step.tool is None and step.result["code"] == "bad_action"
    assert "TOOL_NAME 'fly' is not one of" in step.note


def test_a_method_asks_next_task_as_one_choice_and_writes_what_the_protocol_decides():
    r = chat_rig([
        act("patrol"),
        act("measure", {"distance": 9}),  # STEP 1: its one branch decides STEP 2, no call
        act("think", {"thought": "big"}),
        {"NEXT_TASK": "TERMINATION (DISCOVERY)"},
        {"DONE": "yes", "NEXT_TASK": "done"},
    ])
    assert r.run().outcome == "done"
    inner = [e for e in r.trace.events if isinstance(e, MethodStep)]
    assert [(s.tool, s.next_task, s.decided.next) for s in inner] == [
        ("measure", "[METHOD: STEP 2] DECIDE", "forced"), ("think", "TERMINATION (DISCOVERY)", "model")]
    choice = json.loads(r.backend.calls[3].json_schema)
    assert "TERMINATION (DISCOVERY)" in choice["properties"]["NEXT_TASK"]["enum"]
    assert '{"NEXT_TASK": "[METHOD: STEP 2] DECIDE"}' in r.backend.calls[2].prompt


def test_a_chat_backend_refuses_a_program_that_writes_into_the_turn_before_asking():
    @sgl.function
    def labelled(s):
        s += sgl.user("pick")
        s += sgl.assistant_begin()
        s += "TOOL_NAME: " + sgl.gen("x", max_tokens=4)

    backend = ScriptedBackend(["measure"], whole_turns=True)
    with pytest.raises(LlmError, match="answers whole turns"):
        labelled.run(backend=backend, use_thread=False)


def test_a_chat_run_replays_from_its_trace_as_a_chat_run(tmp_path):
    trace = tmp_path / "trace.jsonl"
    recorded = chat_rig([act("measure", {"distance": 3}), {"DONE": "yes", "NEXT_TASK": "x"}], trace=trace)
    assert recorded.run().outcome == "done"
    recorded.trace.close()
    replayed = rig(None, backend=ReplayBackend(trace))
    assert replayed.backend.capabilities.whole_turns and replayed.run().outcome == "done"
    assert replayed.backend.diverged == []
