"""`mcagent eval` on real servers: three episodes of the scripted explore policy, their records
and the table's figures; and bad input, refused in one line with exit 2 before any episode."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys

import pytest

from agent.eval.records import read_episodes
from support.planning import EXPLORE_POLICY, FIXTURES, STATUS_POLICY
from support.procs import env_with_token, interruptible, mcagent, new_token, processes_with_token, transcript, wait_until_gone
from support.waiting import wait_for

SUITES = FIXTURES / "eval"


def test_a_three_episode_eval_records_each_episode_and_prints_the_table(tmp_path):
    out = tmp_path / "results"
    token = new_token()
    done = mcagent("eval", str(SUITES / "small.yaml"), "--llm", f"scripted:{EXPLORE_POLICY}", "--out", str(out),
                   token=token, timeout_s=300)
    assert done.returncode == 0, transcript(done)
    records = {r.scenario: r for r in read_episodes(out / "episodes.jsonl")}
    assert sorted(records) == ["cave", "pit", "room"]
    for r in records.values():  # the policy walks or climbs out; the world confirms it
        assert (r.outcome, r.success, r.final_check, r.claims_refused) == ("success", True, True, 0), r
        # explore-area is the only tool and its conditions are all checked: the model is asked nothing.
        assert r.steps == 1 and r.inner_steps > 0 and r.llm_calls == 0 and r.refuted_outcomes == []
        assert r.decisions.model == 0 and r.decisions.forced > 0
    # the sky is visible from the pit's bottom, so it is the pit's own check that says it got out
    assert "feet_y_at_least" in records["pit"].reason
    assert all(r.seed == 0 and r.suite == "small" and (tmp_path / r.trace).is_file() for r in records.values())

    progress = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == 3 and progress[-1].startswith("[3/3] ") and "ETA" in progress[-1]
    every = next(line for line in done.stdout.splitlines() if line.startswith("ALL "))
    assert re.search(r"\b3 +100% \[44-100\] +none +0\b", every), every  # episodes, rate, false claims, false successes
    markdown = (out / "summary.md").read_text()
    assert "| pit | `scripted:" in markdown and "| 100% (1/1) | 21-100% | none |" in markdown
    assert "| **ALL** | `scripted:" in markdown and "| 100% (3/3) | 44-100% |" in markdown
    assert "<table" in (out / "summary.html").read_text()
    rate = json.loads((out / "throughput.json").read_text())
    assert rate["episodes"] == 3 and rate["workers"] == 1 and rate["episodes_per_hour"] > 0
    assert f"throughput: 3 episodes in {rate['elapsed_s']:.0f} s with 1 worker: " in done.stdout
    compared = mcagent("eval", "--compare", str(out), str(out), token=token)
    assert compared.returncode == 0 and "pit" in compared.stdout, transcript(compared)
    assert wait_until_gone(token, timeout_s=5) == []
    _resumed_runs_only_the_episode_the_folder_lacks(out, token)


def _resumed_runs_only_the_episode_the_folder_lacks(out, token):
    """An eval stopped partway (its last record cut short by a kill) goes on with --resume."""
    kept = (out / "episodes.jsonl").read_text().splitlines()
    (out / "episodes.jsonl").write_text("\n".join(kept[:2]) + "\n" + kept[2][:40])
    args = ("eval", str(SUITES / "small.yaml"), "--llm", f"scripted:{EXPLORE_POLICY}", "--out", str(out))
    again = mcagent(*args, token=token)
    assert again.returncode == 2 and "--resume to run the episodes it lacks" in again.stderr, transcript(again)
    resumed = mcagent(*args, "--resume", token=token, timeout_s=300)
    assert resumed.returncode == 0, transcript(resumed)
    assert "1 episodes (3 scenarios x 1 backends x 1 seeds), 1 at a time" in resumed.stdout
    assert "(2 recorded before, not run again)" in resumed.stdout and "[1/1] " in resumed.stdout
    assert sorted(r.scenario for r in read_episodes(out / "episodes.jsonl")) == ["cave", "pit", "room"]
    assert "| **ALL** | `scripted:" in (out / "summary.md").read_text() and "| 100% (3/3) |" in (out / "summary.md").read_text()
    other = mcagent("eval", str(SUITES / "small.yaml"), "--llm", "random", "--out", str(out), "--resume", token=token)
    assert other.returncode == 2 and "which this eval does not run" in other.stderr, transcript(other)
    assert wait_until_gone(token, timeout_s=5) == []


@pytest.mark.parametrize(("args", "says"), [
    (["run", "--goal", "g", "--check", "sky_visable: true", "--server", "127.0.0.1:1"],
     "unknown predicate 'sky_visable' (accepted: "),
    (["run", "--goal", "g", "--check", "{within: {x: 1, y: 5, z: 1}}", "--server", "127.0.0.1:1"],
     "check.within: missing key 'distance'"),
    (["run", "--goal", "g", "--check", "sky_visible: [", "--server", "127.0.0.1:1"], "check: invalid YAML/JSON"),
    (["eval", str(SUITES / "missing-scenario.yaml")], "no scenario named 'nowhere'"),
    (["eval", str(SUITES / "bad-check.yaml")], "unknown predicate 'sky_visable'"),
    (["eval", str(SUITES / "small.yaml"), "--llm", "openai:http://127.0.0.1:9/v1#m"],
     "llm: openai:http://127.0.0.1:9/v1#m: the server does not answer at http://127.0.0.1:9/v1/models"),
    (["eval", str(SUITES / "small.yaml"), "--llm", "gpt4"], "unknown backend spec 'gpt4'"),
    (["eval", str(SUITES / "nope.yaml")], "suite file"),
    (["eval", str(SUITES / "small.yaml"), "--llm", "random", "--ray", "127.0.0.1:1"],
     "eval --ray 127.0.0.1:1: nothing answers there"),
    (["eval", "--llm", "random", "--ray", str(SUITES / "small.yaml")], "put the suite file before --ray"),
])
def test_bad_input_is_one_line_with_exit_2_and_starts_nothing(tmp_path, args, says):
    token = new_token()
    done = mcagent(*args, "--out", str(tmp_path / "out"), token=token) if args[0] == "eval" else mcagent(*args, token=token)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and says in lines[0], transcript(done)
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()
    assert wait_until_gone(token, timeout_s=5) == []


def test_an_eval_refused_after_its_default_folder_was_made_leaves_none(tmp_path):
    token = new_token()
    done = mcagent("eval", str(SUITES / "small.yaml"), "--llm", "random", "--ray", "127.0.0.1:1", token=token,
                   cwd=tmp_path)
    assert done.returncode == 2 and "nothing answers there" in done.stderr, transcript(done)
    assert list((tmp_path / "runs").iterdir()) == []


def test_ctrl_c_ends_the_eval_and_every_episode_with_its_server(tmp_path):
    out = tmp_path / "out"
    token = new_token()

    def planning() -> list:
        return [t for t in out.glob("episodes/*/trace.jsonl") if '"outer_step"' in t.read_text()]

    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "eval", str(SUITES / "endless.yaml"), "--llm", f"scripted:{STATUS_POLICY}",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token),
        stdin=subprocess.DEVNULL, preexec_fn=interruptible,
    )
    try:
        assert wait_for(planning, timeout_s=60), "the episode never started planning"
        assert len(processes_with_token(token)) >= 3  # the eval, its episode, the episode's server (and bridge)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "mcagent eval: interrupted" in err, err
    assert wait_until_gone(token, timeout_s=10) == []
