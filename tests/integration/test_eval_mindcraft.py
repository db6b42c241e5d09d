"""`mcagent eval` on a Mindcraft task file (the tests' own, in Mindcraft's format) on real
servers: the techtree tasks run in the resource patch with the scripted craft policy and are
verified by the world; a task whose timeout is shorter than a server's start is ended at its own
bound; the multi-agent, cooking and construction tasks are printed as not run, with why."""

from __future__ import annotations

from agent.eval.records import read_episodes
from support.planning import FIXTURES
from support.procs import mcagent, new_token, transcript, wait_until_gone

TASKS = FIXTURES / "eval" / "mindcraft_tasks.json"
POLICY = FIXTURES / "planner" / "craft_policy.py"


def test_a_mindcraft_task_file_runs_as_it_is_written(tmp_path) -> None:
    out, token = tmp_path / "results", new_token()
    done = mcagent("eval", str(TASKS), "--llm", f"scripted:{POLICY}", "--out", str(out), token=token, timeout_s=600)
    assert wait_until_gone(token, timeout_s=10) == []
    records = {r.scenario: r for r in read_episodes(out / "episodes.jsonl")}
    assert sorted(records) == ["get_a_log", "sticks_from_planks", "too_slow"], transcript(done)
    for name in ("get_a_log", "sticks_from_planks"):
        assert (records[name].outcome, records[name].success, records[name].final_check) == ("success", True, True), records[name]
    assert records["too_slow"].success is False and "timed out after 2 s" in records["too_slow"].reason
    assert done.returncode == 1 and "1 episode(s) could not run" in done.stderr  # the timed-out one
    for name in ("two_crafters", "bake_bread", "a_small_house"):
        assert f"not run: {name}: " in done.stdout
    assert "not run: two_crafters: multi-agent" in (out / "summary.md").read_text()
