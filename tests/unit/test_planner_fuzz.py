"""The planner driven by garbage replies (hypothesis), on the constrained, the unconstrained and
the whole-turn (chat JSON) paths: no exception escapes, the run stays within its bound, it
never ends in success, never in done from a DONE that was empty or unparseable, and a model
that says nothing usable ends the run as llm_error after three unusable replies in a row."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.checks import Verdict
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.planner import prompts
from agent.planner.context import FORMAT_FAILURES_BOUND
from agent.trace.schema import OuterStep
from support.planning import rig

MAX_STEPS = 6
PATHS = {
    "constrained": {"constrained": True},
    "unconstrained": {"constrained": False},
    "whole_turns": {"constrained": False, "whole_turns": True},
}
NEVER = Verdict(holds=False, detail="the goal is not reached")
# What the model is asked after a result when no check decides DONE (OUTER_REFLECT, DONE_ONLY).
DONE_QUESTION = prompts.DONE_ONLY.rstrip(".")

# Anything a model or a server could send, near misses and hostile text included.
any_text = st.one_of(
    st.text(max_size=200),
    st.sampled_from(["", " ", "\n", "yes", "no", "measure", "mc-move", "{}", '{"distance": 3}', "[METHOD: STEP 2]",
                     "TERMINATION (DISCOVERY)", "\ud800", "\x1b[2J", "\x00", "null", "[]", "x" * 5000]),
    st.builds(json.dumps, st.dictionaries(st.text(max_size=12), st.text(max_size=12), max_size=3)),
)
# Text that is never usable: no letter, no digit, nothing that starts a choice or parses as an object.
garbage = st.text(alphabet=st.characters(categories=("Cc", "Cs", "Zs"), include_characters="!?#%~"), max_size=40)


def _planner(replies: st.SearchStrategy[str], data: st.DataObject, path: str,
             to_done: st.SearchStrategy[str] | None = None):
    """A planner whose model answers with `replies`, and the DONE question with `to_done`."""
    def reply(call: ScriptedCall) -> str:
        drawn = to_done if to_done is not None and _asks_done(call) else replies
        return data.draw(drawn, label=f"reply {call.index + 1} ({call.kind})")

    flags = PATHS[path]
    backend = ScriptedBackend(reply, constrained=flags["constrained"], whole_turns=flags.get("whole_turns", False))
    # Constrained as far as a backend goes: select, JSON schema and one-line regex.
    backend.capabilities = backend.capabilities.model_copy(update={"regex": flags["constrained"]})
    return rig(None, backend=backend, max_steps=MAX_STEPS, method_max_steps=4)


def _asks_done(call: ScriptedCall) -> bool:
    """Whether the call answers the DONE question: the reflection after a result (its DONE and
    NEXT_TASK lines, or its whole JSON turn, retries included), before the next STEP."""
    after_result = call.prompt.rsplit(">> END RESULT <<", 1)[-1]
    return DONE_QUESTION in after_result and "STEP " not in after_result.split(DONE_QUESTION, 1)[1]


def _run(r, checked: bool = True):
    judge = (lambda: NEVER) if checked else None
    return r.planner.run("measure something large", r.executor, world="a test bench", judge=judge)


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_reply_leaves_the_run_bounded_and_never_successful(path: str, data: st.DataObject) -> None:
    r = _planner(any_text, data, path)
    result = _run(r)
    assert result.outcome not in ("success", "done")
    assert result.steps <= MAX_STEPS
    assert r.trace.events[-1].event == "run_end"
    json.dumps([e.model_dump(mode="json") for e in r.trace.events])  # every event encodes


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_nothing_usable_ends_the_run_as_llm_error_after_three_replies(path: str, data: st.DataObject) -> None:
    r = _planner(garbage, data, path)
    result = _run(r)
    assert result.outcome == "llm_error", result.reason
    assert f"{FORMAT_FAILURES_BOUND} unusable replies in a row" in result.reason
    # Two outer steps at most: a turn and a NEXT_TASK each, the third unusable reply ends it.
    steps = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert 1 <= len(steps) <= 2 and all(step.note for step in steps)


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_done_question_answered_with_nothing_usable_never_ends_the_run_done(path: str, data: st.DataObject) -> None:
    """No goal check, so the model is asked DONE after every step: the bug made "" a "yes"."""
    r = _planner(any_text, data, path, to_done=garbage)
    result = _run(r, checked=False)
    assert result.outcome not in ("success", "done"), result.reason
    assert result.steps <= MAX_STEPS
    assert all(step.done is None for step in r.trace.events if isinstance(step, OuterStep))


def test_text_from_a_backend_is_sanitised_before_the_prompt_and_the_trace() -> None:
    r = rig(["bad\ud800 \x1b[2Jthought\x00", "measure", '{"distance": 3}', "no", "again"], max_steps=1)
    r.run()
    step = next(e for e in r.trace.events if isinstance(e, OuterStep))
    assert step.thoughts == "bad\ufffd [2Jthought"
    assert all("\ud800" not in p and "\x1b" not in p for p in r.prompts())
