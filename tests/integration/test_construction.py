"""Building a blueprint file on real servers: `mcagent run --blueprint` a Mindcraft blueprint of
four cells with --materials given ends verified by the blueprint check and prints the share of
cells right; `mcagent eval` on a Mindcraft task file with a single-agent construction task
builds it on the flat field, scores it as Mindcraft does from the world after the run, records
the score and prints it with its distribution, and builds its two-agent task as a team, the block
with one bot; a build still going at its task's timeout in the world is stopped there and scored
as it stands."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from agent.blueprint.score import BuildScore
from agent.eval.records import EpisodeRecord, read_episodes
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

TASKS = FIXTURES / "eval" / "mindcraft_construction.json"
PAST_ITS_BOUND = FIXTURES / "eval" / "mindcraft_construction_bound.json"  # 400 planks in 10 s (109 of 144 placed here)
FIRST_OFFER = FIXTURES / "planner" / "first_offer_policy.py"


def test_run_blueprint_builds_a_mindcraft_blueprint_from_the_materials_given(tmp_path: Path) -> None:
    bench = tmp_path / "bench.json"  # three planks, a cobblestone on the middle one, air around
    bench.write_text(json.dumps(json.loads(TASKS.read_text())["a_bench"]["blueprint"]))
    token = new_token()
    done = mcagent("run", "--blueprint", str(bench), "--materials", "given", "--port", "0",
                   "--config", str(run_config(tmp_path)), "--llm", f"scripted:{FIRST_OFFER}", "--max-steps", "3",
                   "--trace", str(tmp_path / "run" / "trace.jsonl"), token=token, timeout_s=180)
    assert done.returncode == 0, transcript(done)
    assert done.stdout.startswith("goal: Build the structure of bench.json (4 blocks) at -1, 5, 2.\n")
    assert "outcome: success (verified: blueprint of 4 cells at (-1, 5, 2) holds: 4 of 4 cells right (100 %))" \
        in done.stdout, transcript(done)
    assert "\nblueprint: 4 of 4 cells right (100 %) after " in done.stdout
    assert wait_until_gone(token, timeout_s=5) == []


def _eval_first_offer(tasks: Path, out: Path,
                      tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, EpisodeRecord]]:
    """`mcagent eval` of a task file with the first-offer policy: what it printed, its records by task."""
    token = new_token()
    done = mcagent("eval", str(tasks), "--llm", f"scripted:{FIRST_OFFER}", "--out", str(out),
                   "--config", str(run_config(tmp_path)), token=token, timeout_s=300)
    assert done.returncode == 0, transcript(done)
    assert wait_until_gone(token, timeout_s=10) == []
    return done, {r.scenario: r for r in read_episodes(out / "episodes.jsonl")}


def test_eval_builds_a_construction_task_and_prints_its_score(tmp_path: Path) -> None:
    out = tmp_path / "results"
    done, records = _eval_first_offer(TASKS, out, tmp_path)
    record, team = records["a_bench"], records["a_bench_for_two"]
    assert (record.success, record.final_check) == (True, True), record
    assert record.build == BuildScore(matches=4, mismatches=0)
    assert (team.success, team.build, list(team.bots)) == (True, BuildScore(matches=1, mismatches=0),
                                                          ["agent0", "agent1"]), team
    assert "not run:" not in done.stdout
    assert f"  {record.name()}: 4 of 4 cells right (100 %)\n" in done.stdout
    assert "  2 scored: min 100%, median 100%, max 100%; 2 at 100 %" in done.stdout
    assert "2 at 100 %" in (out / "summary.md").read_text() and "2 at 100 %" in (out / "summary.html").read_text()


def test_a_build_going_at_its_tasks_timeout_is_stopped_there_and_scored_as_it_stands(tmp_path: Path) -> None:
    done, records = _eval_first_offer(PAST_ITS_BOUND, tmp_path / "results", tmp_path)
    (record,) = records.values()
    assert (record.outcome, record.success) == ("stopped", False), record
    assert "the deadline of 10 s in the world" in record.reason, record.reason
    # Read from the world after the stop: every cell of the floor counted, not all of it built.
    assert record.build is not None and record.build.matches + record.build.mismatches == 400, record.build
    assert record.build.matches < 400
    assert "  1 scored: " in done.stdout
