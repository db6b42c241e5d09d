"""A DONE the world contradicts is refused, through `mcagent run` on a real server: at the bottom
of the deep pit (the sky is visible there, which fooled the explore policy) and in the demo's
cave. The refusal reaches the model's prompt, the trace records each claim and its verdict, and
the run does not end as a success."""

from __future__ import annotations

import pytest

from agent.trace import read_trace
from agent.trace.schema import DoneClaim, LlmCall, RunEnd
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

CLAIMS_DONE = FIXTURES / "planner" / "claims_done.yaml"


@pytest.mark.parametrize(("scenario", "refusal"), [
    ("deep-pit", "DONE refused: not all hold: outside x -2..2 y 0..20 z -2..2 is false: the feet block (0, 2, 0) is "
                 "inside; feet_y_at_least 5 is false: the feet are at y=2.00"),
    ("cave", "DONE refused: sky_visible is false: stone at y=7, 1 block above the head"),
])
def test_a_done_claim_the_world_contradicts_is_refused_and_the_run_goes_on(tmp_path, scenario, refusal):
    trace = tmp_path / "trace.jsonl"
    token = new_token()
    run = mcagent("run", "--scenario", scenario, "--config", str(run_config(tmp_path)), "--port", "0",
                  "--llm", f"scripted:{CLAIMS_DONE}", "--max-steps", "2", "--trace", str(trace),
                  token=token, timeout_s=120)
    assert run.returncode == 1, transcript(run)
    assert "outcome: max_steps (the goal was not reached within 2 steps; 2 DONE claim(s) refused)" in run.stdout
    assert "DONE claims: 2, refused by the goal check: 2" in run.stdout
    assert refusal.removeprefix("DONE refused: ") in run.stdout.splitlines()[-1]  # the closing verdict
    events = read_trace(trace).events
    claims = [e for e in events if isinstance(e, DoneClaim)]
    assert [(c.by, c.holds, c.accepted) for c in claims] == [("model", False, False)] * 2
    assert claims[0].detail.startswith(refusal.removeprefix("DONE refused: "))
    # What the model read before its second step: the world's answer to its first claim.
    assert any(refusal in e.prompt_added for e in events if isinstance(e, LlmCall))
    end = next(e for e in events if isinstance(e, RunEnd) and e.plan == 0)
    assert (end.outcome, end.claims, end.claims_refused) == ("max_steps", 2, 2)
    assert wait_until_gone(token, timeout_s=5) == []
