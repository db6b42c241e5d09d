"""`mcagent eval` on a Mindcraft task file (the tests' own, in Mindcraft's format) on real
servers: the techtree tasks run in the resource patch with the scripted craft policy and are
verified by the world; a task whose timeout is shorter than a server's start gets its time in the
world all the same, and is stopped there; the two-agent techtree task runs as a team, a bot per agent with a trace each; the
cooking and blueprint-less construction tasks are printed as not run, with why."""

from __future__ import annotations

from pathlib import Path

from agent.eval.records import read_episodes
from agent.trace import read_trace
from agent.trace.schema import ToolResult
from support.planning import FIXTURES
from support.procs import mcagent, new_token, transcript, wait_until_gone

TASKS = FIXTURES / "eval" / "mindcraft_tasks.json"
POLICY = FIXTURES / "planner" / "craft_policy.py"


def test_a_mindcraft_task_file_runs_as_it_is_written(tmp_path) -> None:
    out, token = tmp_path / "results", new_token()
    done = mcagent("eval", str(TASKS), "--llm", f"scripted:{POLICY}", "--out", str(out), token=token, timeout_s=600)
    assert wait_until_gone(token, timeout_s=10) == []
    records = {r.scenario: r for r in read_episodes(out / "episodes.jsonl")}
    assert sorted(records) == ["get_a_log", "sticks_from_planks", "too_slow", "two_crafters"], transcript(done)
    for name in ("get_a_log", "sticks_from_planks"):
        assert (records[name].outcome, records[name].success, records[name].final_check) == ("success", True, True), records[name]
    # Its 2 s are counted from when the bot stands in the world, the server's start apart: the
    # run is stopped there as a run (no kill, no error), with both times in its record.
    slow = records["too_slow"]
    assert (slow.outcome, slow.success) == ("stopped", False) and "the deadline of 2 s in the world" in slow.reason
    assert slow.setup_s is not None and slow.setup_s > 0 and slow.task_s is not None and 2 <= slow.task_s < 30, slow
    assert done.returncode == 0 and "could not run" not in done.stderr, transcript(done)
    for name in ("bake_bread", "a_small_house"):
        assert f"not run: {name}: " in done.stdout
    team = records["two_crafters"]
    assert team.outcome != "error" and team.trace is not None, team
    runs = {bot: read_trace(Path(team.trace) / bot / "trace.jsonl") for bot in ("agent0", "agent1")}
    assert all(run.end is not None for run in runs.values()), team
    assert list(team.bots) == ["agent0", "agent1"]  # each bot's own figures, as its trace ended
    ends = [(r.end.steps, r.end.usage.calls) for r in runs.values()]
    assert [(b.steps, b.usage.calls) for b in team.bots.values()] == ends
    assert team.steps == sum(b.steps for b in team.bots.values())
    denied = runs["agent0"]  # its !collectBlocks is denied: mc-collect is not its tool, not even a skill's
    assert "mc-collect" not in denied.start.tools and not any(
        isinstance(e, ToolResult) and e.tool == "mc-collect" and e.result["status"] != "failed"
        for e in denied.events), team
