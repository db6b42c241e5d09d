"""A run given no check reads one from its goal's words: "Stand next to the gold block" in a
world with a gold block behind a wall (the gold scenario without its success key) is judged by
near_block, which the first line names as derived, and a walk there ends the run verified. Words
no rule reads go to the model only when `mcagent llm check` recorded its reading at the mark
(agent/session/model_reading.py): a record here says so for the scripted classifier."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from agent.diagnostics.measured import READING, CaseScore, score_of
from agent.diagnostics.measurements import identity_of, record
from agent.llm.scripted import load_script
from agent.paths import REPO_ROOT
from agent.planner.reading_set import set_digest
from agent.trace import read_trace
from agent.trace.schema import ModelReading, Understood
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

APPROACH_GOLD = FIXTURES / "planner" / "approach_gold_policy.py"
CLASSIFY_GOLD = FIXTURES / "planner" / "classify_gold_policy.py"
FOLLOW = FIXTURES / "planner" / "follow_policy.py"
FIRST_OFFER = FIXTURES / "planner" / "first_offer_policy.py"


def unjudged(tmp_path: Path, name: str = "gold") -> Path:
    """A shipped scenario without its goal and success: the run's check comes from the words."""
    world = yaml.safe_load((REPO_ROOT / "server-config" / "scenarios" / f"{name}.yaml").read_text(encoding="utf-8"))
    del world["success"], world["goal"]
    scenario = tmp_path / f"{name}-unjudged.yaml"
    scenario.write_text(yaml.safe_dump(world), encoding="utf-8")
    return scenario


def reads_at_the_mark(script: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A record in `cache` that says the scripted backend read 50 of 50 asks right (the test's
    own cache, not the user's), and the environment that points a run at it."""
    monkeypatch.setenv("MCAGENT_CACHE", str(cache))
    cases = [CaseScore(ask=f"ask {n}", expected="sky_visible", read="sky_visible", outcome="right") for n in range(50)]
    record(identity_of(load_script(script)), f"scripted:{script}", score_of(READING, set_digest(), cases, 1.0))
    return {"MCAGENT_CACHE": str(cache)}


def test_a_goal_to_stand_by_a_block_is_judged_by_the_check_its_words_state(tmp_path: Path) -> None:
    scenario = unjudged(tmp_path)
    trace, token = tmp_path / "trace.jsonl", new_token()
    done = mcagent("run", "--scenario", str(scenario), "--goal", "Stand next to the gold block", "--port", "0",
                   "--config", str(run_config(tmp_path)), "--llm", f"scripted:{APPROACH_GOLD}", "--max-steps", "2",
                   "--trace", str(trace), token=token, timeout_s=120)
    assert done.returncode == 0, transcript(done)
    assert done.stdout.startswith("goal: Stand next to the gold block\n")
    assert "understood: 1. near_block gold_block 2 (read by rules)" in done.stdout
    assert "outcome: success (verified: near_block gold_block 2 holds: gold_block " in done.stdout
    assert read_trace(trace).start.check == {"near_block": {"block": "gold_block", "distance": 2.0}}
    assert wait_until_gone(token, timeout_s=5) == []


def test_a_goal_no_rule_reads_is_classified_by_the_model_among_what_the_world_offers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario, trace, token = unjudged(tmp_path), tmp_path / "trace.jsonl", new_token()
    measured = reads_at_the_mark(CLASSIFY_GOLD, tmp_path / "cache", monkeypatch)
    done = mcagent("run", "--scenario", str(scenario), "--goal", "be where the shiny yellow thing is", "--port", "0",
                   "--config", str(run_config(tmp_path)), "--llm", f"scripted:{CLASSIFY_GOLD}", "--max-steps", "2",
                   "--judge", "near_block: {block: gold_block}", "--trace", str(trace), token=token, timeout_s=120,
                   env=measured)
    assert done.returncode == 0, transcript(done)
    assert "understood: 1. near_block gold_block 2 (read by model)" in done.stdout
    assert "the model reads no goals" not in done.stdout
    assert "outcome: success (verified: near_block gold_block 2 holds: " in done.stdout
    assert "judge (hidden from the planner): near_block gold_block 2 holds: " in done.stdout
    assert wait_until_gone(token, timeout_s=5) == []


def test_a_model_whose_reading_was_never_measured_reads_nothing_and_the_run_says_why(tmp_path: Path) -> None:
    scenario, trace, token = unjudged(tmp_path), tmp_path / "trace.jsonl", new_token()
    done = mcagent("run", "--scenario", str(scenario), "--goal", "be where the shiny yellow thing is", "--port", "0",
                   "--config", str(run_config(tmp_path)), "--llm", f"scripted:{CLASSIFY_GOLD}", "--max-steps", "1",
                   "--trace", str(trace), token=token, timeout_s=120, env={"MCAGENT_CACHE": str(tmp_path / "empty")})
    lines = done.stdout.splitlines()
    assert "understood: nothing a check can judge (the run has no check)" in lines, transcript(done)
    assert "the model reads no goals (llm check: not measured)" in lines, transcript(done)
    (understood,) = [e for e in read_trace(trace).events if isinstance(e, Understood)]
    assert understood.subgoals == [] and understood.model_reading == ModelReading(reads=False, why="not measured")
    assert wait_until_gone(token, timeout_s=5) == []


def test_him_is_the_player_the_goal_names_when_one_of_that_name_is_in_view(tmp_path: Path) -> None:
    # flying-squid sends the walker's entity with no tab list entry: its name is found by its UUID
    scenario, trace, token = unjudged(tmp_path, "follow"), tmp_path / "trace.jsonl", new_token()
    done = mcagent("run", "--scenario", str(scenario), "--goal", "alex is about to head off, stick with him",
                   "--port", "0", "--config", str(run_config(tmp_path)), "--llm", f"scripted:{FOLLOW}",
                   "--max-steps", "1", "--trace", str(trace), token=token, timeout_s=120)
    # the reading is printed before the first step; the following is test_mc_follow's
    assert "understood: 1. near_player alex 3 (read by rules)" in done.stdout, transcript(done)
    assert wait_until_gone(token, timeout_s=5) == []


def test_a_place_passed_through_must_have_held_before_coming_back_is_done(tmp_path: Path) -> None:
    # At the start "come back here" already holds; the run is done once the gold block was
    # reached and the bot is back, not before (both at once can never hold: the first need not last).
    scenario, trace, token = unjudged(tmp_path), tmp_path / "trace.jsonl", new_token()
    done = mcagent("run", "--scenario", str(scenario), "--goal", "Find the gold block, then come back here",
                   "--port", "0", "--config", str(run_config(tmp_path)), "--llm", f"scripted:{FIRST_OFFER}",
                   "--max-steps", "4", "--trace", str(trace), token=token, timeout_s=120)
    assert done.returncode == 0, transcript(done)
    assert "understood: 1. near_block gold_block 2  2. within 2 of (0.5, 5, 0.5) (read by rules)" in done.stdout
    steps = [line.split()[2] for line in done.stdout.splitlines() if line.startswith("step ")]
    assert steps[:2] == ["mc-approach", "mc-goto"], transcript(done)
    assert "outcome: success (verified: within 2 of (0.5, 5, 0.5) holds: " in done.stdout
    assert wait_until_gone(token, timeout_s=5) == []
