"""With a goal check the model is never asked DONE, so a model that would claim the goal at
every step cannot end a run the world contradicts, through `mcagent run` on a real server: at
the bottom of the deep pit (the sky is visible there, which fooled the explore policy) and in
the demo's cave. The prompt says the world has answered, and the run does not end as a success."""

from __future__ import annotations

import pytest

from agent.planner import prompts
from agent.trace import read_trace
from agent.trace.schema import DoneClaim, LlmCall, RunEnd
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

CLAIMS_DONE = FIXTURES / "planner" / "claims_done.yaml"


@pytest.mark.parametrize(("scenario", "verdict"), [
    ("deep-pit", "not all hold: outside x -2..2 y 0..20 z -2..2 is false: the feet block (0, 2, 0) is inside; "
                 "feet_y_at_least 5 is false: the feet are at y=2.00"),
    ("cave", "sky_visible is false: stone at y=7, 1 block above the head"),
])
def test_a_model_that_would_claim_done_is_never_asked_and_cannot_end_the_run(tmp_path, scenario, verdict):
    trace = tmp_path / "trace.jsonl"
    token = new_token()
    run = mcagent("run", "--scenario", scenario, "--config", str(run_config(tmp_path)), "--port", "0",
                  "--llm", f"scripted:{CLAIMS_DONE}", "--tools", "mc-status,mc-inventory,mc-map", "--max-steps", "2",
                  "--trace", str(trace),
                  token=token, timeout_s=120)
    assert run.returncode == 1, transcript(run)
    assert "outcome: max_steps (the goal was not reached within 2 steps)" in run.stdout
    assert verdict in run.stdout.splitlines()[-1]  # the closing verdict
    events = read_trace(trace).events
    assert not [e for e in events if isinstance(e, DoneClaim) and e.by == "model"]
    calls = [e for e in events if isinstance(e, LlmCall)]
    assert len(calls) == 6 and not any(e.prompt_added.endswith(prompts.DONE) for e in calls)
    assert sum(prompts.NEXT_ONLY in e.prompt_added for e in calls) == 2  # the world answered DONE, each step
    end = next(e for e in events if isinstance(e, RunEnd) and e.plan == 0)
    assert (end.outcome, end.claims, end.claims_refused) == ("max_steps", 0, 0)
    assert wait_until_gone(token, timeout_s=5) == []
