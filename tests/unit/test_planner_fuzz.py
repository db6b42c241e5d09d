"""The planner driven by garbage replies (hypothesis), on the constrained, the unconstrained and
the whole-turn (chat JSON) paths: no exception escapes, the run stays within its bound, it
never ends in success or an unverified done, and a model that says nothing usable ends the
run as llm_error after three unusable replies in a row."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.checks import Verdict
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.trace.schema import OuterStep
from support.planning import rig

MAX_STEPS = 6
PATHS = {
    "constrained": {"constrained": True},
    "unconstrained": {"constrained": False},
    "whole_turns": {"constrained": False, "whole_turns": True},
}
NEVER = Verdict(holds=False, detail="the goal is not reached")

# Anything a model or a server could send, near misses and hostile text included.
any_text = st.one_of(
    st.text(max_size=200),
    st.sampled_from(["", " ", "\n", "yes", "no", "measure", "mc-move", "{}", '{"distance": 3}', "[METHOD: STEP 2]",
                     "TERMINATION (DISCOVERY)", "\ud800", "\x1b[2J", "\x00", "null", "[]", "x" * 5000]),
    st.builds(json.dumps, st.dictionaries(st.text(max_size=12), st.text(max_size=12), max_size=3)),
)
# Text that is never usable: no letter, no digit, nothing that starts a choice or parses as an object.
garbage = st.text(alphabet=st.characters(categories=("Cc", "Cs", "Zs"), include_characters="!?#%~"), max_size=40)


def _planner(replies: st.SearchStrategy[str], data: st.DataObject, path: str):
    def reply(call: ScriptedCall) -> str:
        return data.draw(replies, label=f"reply {call.index + 1} ({call.kind})")

    flags = PATHS[path]
    backend = ScriptedBackend(reply, constrained=flags["constrained"], whole_turns=flags.get("whole_turns", False))
    return rig(None, backend=backend, max_steps=MAX_STEPS, method_max_steps=4)


def _run(r):
    return r.planner.run("measure something large", r.executor, world="a test bench", judge=lambda: NEVER)


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
    assert "unusable replies in a row" in result.reason
    # Two outer steps at most: a turn and a NEXT_TASK each, the third unusable reply ends it.
    steps = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert 1 <= len(steps) <= 2 and all(step.note for step in steps)


def test_text_from_a_backend_is_sanitised_before_the_prompt_and_the_trace() -> None:
    r = rig(["bad\ud800 \x1b[2Jthought\x00", "measure", '{"distance": 3}', "no", "again"], max_steps=1)
    r.run()
    step = next(e for e in r.trace.events if isinstance(e, OuterStep))
    assert step.thoughts == "bad\ufffd [2Jthought"
    assert all("\ud800" not in p and "\x1b" not in p for p in r.prompts())
