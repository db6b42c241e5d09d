"""Empty, unparseable or invalid replies are format failures, never a choice: three in a row end
the run as llm_error, a usable reply starts the count again, and text from a backend is cleaned
(surrogates, control characters) before it reaches a prompt, a trace or a terminal.
tests/unit/test_planner_fuzz.py drives the same with arbitrary replies."""

from __future__ import annotations

import json

import pytest

from agent.llm import LlmError, open_backend
from agent.llm.http import HttpError, HttpPolicy
from agent.llm.sanitise import clean_text
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.planner.context import FORMAT_FAILURES_BOUND
from agent.trace import read_trace
from agent.trace.schema import Error, MethodEnd, MethodStep, OuterStep
from support.http_server import FakeHttpServer, Reply, Request
from support.planning import Reply as Field
from support.planning import act, rig

GOAL = "measure something large"


def _unchecked(r):
    """A run without a goal check: the model is asked DONE after every step."""
    return r.planner.run(GOAL, r.executor, world="a test bench")


def _steps(r) -> list[OuterStep]:
    return [e for e in r.trace.events if isinstance(e, OuterStep)]


@pytest.mark.parametrize("constrained", [True, False])
def test_an_empty_done_is_no_answer_not_the_first_choice(constrained: bool):
    """An empty select reply once resolved to the first choice: DONE "yes", outcome done, exit 0."""
    r = rig([*act("measure", {"distance": 3}), Field("", "done"), Field("", "done"), Field("again", "next")],
            constrained=constrained, max_steps=1)
    result = _unchecked(r)
    assert result.outcome == "max_steps" and result.exit_code == 1
    [step] = _steps(r)
    assert step.done is None and "is not a valid DONE answer" in step.note


def test_three_unusable_replies_in_a_row_end_the_run_as_llm_error_and_say_what_they_were():
    # The third comes in the last step: the run still ends llm_error, not max_steps.
    r = rig(["", "", "", "", "", "", "never asked"], max_steps=2)
    result = _unchecked(r)
    assert (result.outcome, result.exit_code, result.steps) == ("llm_error", 1, 2)
    assert f"{FORMAT_FAILURES_BOUND} unusable replies in a row" in result.reason
    assert "'' is not a valid tool name" in result.reason and "DONE" in result.reason
    # Step 1: THOUGHTS, TOOL_NAME, DONE, NEXT_TASK; step 2: THOUGHTS, TOOL_NAME, and nothing after it.
    assert len(r.backend.calls) == 6
    assert all(step.note and step.result["code"] == "bad_action" for step in _steps(r))
    [error] = [e for e in r.trace.events if isinstance(e, Error)]
    assert error.source == "llm" and error.message == result.reason


def test_an_empty_or_unparseable_args_reply_and_an_invalid_done_each_count():
    r = rig([*act("measure", ""), Field("maybe", "done"), Field("maybe", "done"), Field("go on", "next"),
             *act("measure", "distance please"), Field("no", "done"), Field("go on", "next")],
            constrained=False, max_steps=5)
    result = _unchecked(r)
    assert result.outcome == "llm_error", result.reason
    assert "TOOL_ARGS_JSON is empty" in result.reason and "DONE" in result.reason and "not JSON" in result.reason
    first, second = _steps(r)
    assert first.result["code"] == second.result["code"] == "bad_args"  # nothing ran on no arguments
    assert second.done is None and second.next_task == ""  # the third failure: not asked to reflect


def test_a_usable_reply_starts_the_count_again():
    """Every turn names no tool, every reflection is usable: never three failures in a row."""
    script = [reply for _ in range(4) for reply in ("hm", "", "no", "try another tool")]
    result = _unchecked(rig(script, max_steps=4))
    assert result.outcome == "max_steps"


def test_unusable_replies_inside_a_method_count_and_end_the_run():
    def reply(call: ScriptedCall) -> str:
        return "patrol" if call.choices and "patrol" in call.choices else ""

    r = rig(None, backend=ScriptedBackend(reply), max_steps=3)
    result = _unchecked(r)
    assert result.outcome == "llm_error", result.reason
    assert "TOOL_ARGS_JSON is empty" in result.reason and "NEXT_TASK" in result.reason
    inner = [e for e in r.trace.events if isinstance(e, MethodStep)]
    assert [step.tool for step in inner] == ["measure", "think"] and all(step.note for step in inner)
    [end] = [e for e in r.trace.events if isinstance(e, MethodEnd)]
    assert end.outcome == "FAILED"


def test_clean_text_replaces_surrogates_and_drops_controls_but_keeps_lines_tabs_and_unicode():
    assert clean_text("a\ud800b\udfff") == "a\ufffdb\ufffd"
    assert clean_text("x\x00\x07\x1b[2J\r\x7f\x85\u2028y") == "x[2Jy"
    kept = "line\n\ttab é 石 😀 ≠"
    assert clean_text(kept) == kept


def test_an_error_message_from_a_backend_is_cleaned_too():
    assert str(LlmError("bad \ud800\x1b[31m")) == "bad \ufffd[31m"
    error = HttpError("HTTP 500: \x00boom", 500)
    assert (str(error), error.status) == ("HTTP 500: boom", 500)


def test_every_backend_path_returns_cleaned_text_gen_select_and_complete():
    backend = ScriptedBackend(["a\ud800\x1b", "\x00no"])
    assert backend.complete("say it") == "a\ufffd"
    r = rig(None, backend=ScriptedBackend(["\ud800\x07thought", "measure", '{"distance": 3}', "no", "\x1bnext\ud800"]),
            max_steps=1)
    _unchecked(r)
    [step] = _steps(r)
    assert (step.thoughts, step.next_task) == ("\ufffdthought", "next\ufffd")
    assert not any(ch in prompt for prompt in r.prompts() for ch in ("\ud800", "\x07", "\x1b"))


def _chat_server(content: str | None, error: str | None = None):
    """A chat-only server that answers every turn with `content`, or fails with `error`."""
    def answer(request: Request) -> Reply:
        if request.path.endswith("/models"):
            return Reply(200, {"data": [{"id": "m"}]})
        if error is not None:
            return Reply(500, {"error": {"message": error}})
        return Reply(200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
                           "usage": {"prompt_tokens": 20, "completion_tokens": 3}})

    return answer


@pytest.mark.parametrize(("content", "error"), [("\ud800\x1b[2J", None), (None, "overloaded \ud800")])
def test_a_server_sending_lone_surrogates_ends_the_run_in_one_readable_trace(tmp_path, content, error):
    """A lone surrogate in a reply, or in an error body, was a 63-line traceback."""
    with FakeHttpServer(_chat_server(content, error)) as server:
        backend = open_backend(f"openai:{server.url}/v1?mode=chat&constraint=none#m",
                               policy=HttpPolicy(retries=0, timeout_s=5))
        r = rig(None, backend=backend, trace=tmp_path / "trace.jsonl", max_steps=5)
        result = _unchecked(r)
    assert result.outcome == "llm_error" and "\ud800" not in result.reason
    text = (tmp_path / "trace.jsonl").read_text(encoding="utf-8")
    assert "\\ud800" not in text and "\x1b" not in text
    trace = read_trace(tmp_path / "trace.jsonl")
    assert not trace.bad_lines and trace.events[-1].event == "run_end"
    json.dumps(result.reason).encode("utf-8")
