"""execute_action: validation, dispatch by type, exceptions captured and recorded, nested calls traced."""

from __future__ import annotations

import pytest

from agent.tools import ToolResult
from tool_testing import ex, make_executor, run  # noqa: F401 (ex is a fixture)


class FakeLlm:
    def __init__(self) -> None:
        self.prompts: list[str] = []

    def complete(self, prompt: str, **params) -> str:
        self.prompts.append(prompt)
        return "a terse summary"


def test_python_tool_gets_its_args_and_its_data_becomes_a_note(ex):
    result = run(ex, "echo-args", input_value="hello", count=2)
    assert result == {
        "status": "success",
        "data": {"input_value": "hello", "count": 2},
        "value": '{"input_value": "hello", "count": 2}',
        "resource_id": "Note_1",
    }
    assert ex.infospace.note("Note_1").content == {"input_value": "hello", "count": 2}


def test_an_exception_becomes_a_failed_result_and_is_recorded(ex):
    result = run(ex, "boom")
    assert result["status"] == "failed" and result["code"] == "exception"
    assert result["reason"] == "RuntimeError: kaput"
    record = ex.records[-1]
    assert (record.tool, record.status, record.code) == ("boom", "failed", "exception")
    assert "RuntimeError: kaput" in record.error_trace and "tool.py" in record.error_trace


def test_nested_calls_go_through_the_executor_and_are_recorded():
    class Observer:
        def tool_started(self, action, depth, tool_type):
            started.append((action["type"], depth, tool_type))

        def tool_finished(self, record, result):
            seen.append(record)

    started, seen = [], []
    ex = make_executor(observer=Observer())
    result = run(ex, "nested-note", text="found coal")
    assert result["status"] == "success" and result["resource_id"] == "Note_1"
    assert started == [("nested-note", 0, "python"), ("create-note", 1, "primitive")]
    assert [(r.tool, r.depth) for r in seen] == [("create-note", 1), ("nested-note", 0)]
    assert seen[0].args == {"content": "found coal"}
    assert seen[1].duration_us >= seen[0].duration_us > 0


def test_a_failed_uniform_dict_from_a_tool_keeps_its_reason(ex):
    result = run(ex, "refuses")
    assert (result["status"], result["reason"], result["code"]) == ("failed", "no target in sight", "tool_failed")


def test_a_python_tool_is_imported_once(ex):
    assert run(ex, "counted")["data"] == {"imports": 1, "calls": 1}
    assert run(ex, "counted")["data"] == {"imports": 1, "calls": 2}


def test_data_that_is_not_json_is_a_bad_return(ex):
    result = run(ex, "opaque")
    assert result["code"] == "bad_return" and "not JSON" in result["reason"]


def test_llm_tool_fills_its_prompt_and_runs_on_the_backend():
    llm = FakeLlm()
    ex = make_executor(llm=llm)
    result = run(ex, "summarize", text="a long report about caves", style="terse")
    assert result["data"] == "a terse summary" and result["resource_id"] == "Note_1"
    assert llm.prompts == [
        'Summarize the following in one terse line. Keep JSON such as {"a": 1} as it is.\n\na long report about caves'
    ]


def test_llm_tool_without_a_backend_is_unavailable(ex):
    result = run(ex, "summarize", text="x")
    assert result["code"] == "unavailable" and "no LLM backend is configured" in result["reason"]


def test_instruction_tool_returns_its_text(ex):
    result = run(ex, "mining-tips")
    assert result["status"] == "success" and result["data"].startswith("Never dig straight down.")
    assert "resource_id" not in result


def test_method_tool_waits_for_the_planner(ex):
    result = run(ex, "explore-area")
    assert result["code"] == "unavailable"
    assert "method runner is not available until the planner lands" in result["reason"]


def test_method_tool_goes_to_the_method_runner_when_there_is_one():
    calls = []

    def runner(spec, args, context):
        calls.append((spec.name, len(spec.protocol.steps), args))
        return ToolResult.success("SUCCESS")

    ex = make_executor(method_runner=runner)
    assert run(ex, "explore-area")["data"] == "SUCCESS"
    assert calls == [("explore-area", 4, {})]


@pytest.mark.parametrize(
    ("action", "code", "reason"),
    [
        ("create-note", "bad_action", 'expected an action {"type": TOOL_NAME, ...arguments}'),
        ({"content": "x"}, "bad_action", 'expected an action {"type": TOOL_NAME'),
        ({"type": 7}, "bad_action", 'expected an action {"type": TOOL_NAME'),
        ({"type": "crete-note"}, "bad_action", "no tool named 'crete-note'; did you mean 'create-note'?"),
        ({"type": "create-note"}, "needs_input", "create-note needs a value for 'content': the text or JSON"),
        ({"type": "head", "target": "Collection_1", "n": "3"}, "bad_args", "head: argument 'n': expected an integer"),
        ({"type": "head", "target": "C", "n": 1, "m": 2}, "bad_args", "head: unknown argument 'm' (accepted:"),
        ({"type": "mining-tips", "x": 1}, "bad_args", "unknown argument 'x': this tool takes no arguments"),
        ({"type": "create-note", "content": "x", "as": "two words"}, "bad_args", '"as": expected a name'),
        ({"type": "think", "thought": "t", "as": "t"}, "bad_action", "gave no note or collection to bind to $t"),
    ],
)
def test_bad_actions_and_bad_args_fail_with_a_reason(ex, action, code, reason):
    result = ex.execute_action(action).as_dict()
    assert result["status"] == "failed" and result["code"] == code
    assert reason in result["reason"]


def test_bad_args_never_reach_the_tool(ex):
    run(ex, "echo-args", count=-1)
    assert ex.infospace.store.search_notes("count", 5) == []


def test_as_binds_the_result_in_the_plan_scope(ex):
    with ex.plan_scope():
        run(ex, "create-note", content="iron at 3 4 5", **{"as": "iron"})
        assert run(ex, "load", target="$iron")["data"] == "iron at 3 4 5"
    assert run(ex, "load", target="$iron")["code"] == "not_found"


def test_every_call_is_recorded_even_malformed_ones(ex):
    ex.execute_action({"type": "nope", 1: "x"})
    ex.execute_action("not a dict")
    assert [(r.tool, r.args, r.code) for r in ex.records] == [
        ("nope", {"1": "x"}, "bad_action"),
        (None, {}, "bad_action"),
    ]


def test_say_reaches_the_user():
    heard = []
    ex = make_executor(on_say=heard.append)
    run(ex, "say", message="hello")
    assert heard == ["hello"]
