"""The planner in the real world: a scripted LLM drives explore-area in the room scenario
(a closed stone room with one doorway) until the bot stands outside under open sky."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from agent.bridge import connect
from agent.infospace import Infospace
from agent.llm.scripted import load_script
from agent.paths import SKILLS_DIR
from agent.planner import Planner, PlannerOptions
from agent.planner.tool_trace import ToolTrace
from agent.trace import TraceWriter, read_trace
from agent.trace.schema import MethodEnd, MethodStep, OuterStep, RunStart, ToolCall
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.tools import Executor, load_toolbox, standard_sources
from support.planning import EXPLORE_POLICY, NOTE_POLICY, run_config
from support.procs import env_with_token, interruptible, mcagent, new_token, transcript, wait_until_gone

GOAL = "get out of the room to open sky"
# The room's shell spans z -4..4 (roof included); the doorway is in the north wall, at z = -4:
# a bot out of it stands in a block north of that, its feet at z <= -4.5 (the block's centre).
OUTSIDE_NORTH_OF_Z = -4.5


@pytest.fixture(scope="module")
def toolbox():
    box = load_toolbox(standard_sources("minecraft", [Path("skills")], base=SKILLS_DIR.parent))
    assert not box.errors, box.errors
    return box


def test_explore_area_leads_the_bot_out_of_the_room_under_open_sky(tmp_path, toolbox):
    trace = tmp_path / "trace.jsonl"
    with LocalServer(ServerSettings(), port=0, scenario=load_scenario("room")) as info:
        with connect(port=info.port, username="explorer") as bot:
            backend = load_script(EXPLORE_POLICY)
            writer = TraceWriter(trace)
            planner = Planner(backend, toolbox, PlannerOptions(max_steps=3), writer)
            infospace = Infospace.open(":memory:")
            executor = Executor(toolbox, infospace, world=bot, llm=backend, method_runner=planner, subplanner=planner,
                                observer=ToolTrace(writer))
            result = planner.run(GOAL, executor)
            writer.close()
            # Ground truth, independent of what the planner reported:
            seen = executor.execute_action({"type": "mc-observe-blocks", "radius": 4})
            where = bot.state().position
            infospace.close()
    assert (result.outcome, result.steps, result.exit_code) == ("done", 1, 0)
    assert seen.ok and seen.data["sky_visible"] is True, seen.value
    assert where.z <= OUTSIDE_NORTH_OF_Z, where

    records = read_trace(trace).events
    inner = [r for r in records if isinstance(r, MethodStep)]
    assert [r.inner_loop.inner_step for r in inner] == list(range(1, len(inner) + 1))
    assert all(r.action["_inner_loop"]["method_name"] == "explore-area" for r in inner)
    # the protocol's first step explores by the map, and that is enough in a room with a doorway
    assert [r.tool for r in inner] == ["mc-explore"]
    assert all(r.result["status"] == "success" for r in inner), [r.result for r in inner]
    assert inner[0].result["data"]["stop_reason"] == "goal_reached" and inner[0].result["data"]["legs"]
    [method] = [r for r in records if isinstance(r, MethodEnd)]
    assert method.outcome == "DISCOVERY" and method.inner_steps == len(inner)
    assert inner[-1].next_task == "TERMINATION (DISCOVERY)"


def test_mcagent_run_plans_prints_each_step_and_writes_the_trace(tmp_path):
    config = run_config(tmp_path)
    trace = tmp_path / "run" / "trace.jsonl"
    token = new_token()
    done = mcagent("run", "--goal", GOAL, "--config", str(config), "--scenario", "room", "--port", "0",
                   "--llm", f"scripted:{EXPLORE_POLICY}", "--max-steps", "2", "--trace", str(trace),
                   token=token, timeout_s=120)
    assert done.returncode == 0, transcript(done)
    lines = done.stdout.splitlines()
    assert any(line.startswith("step 1.1 ") and "mc-explore" in line and "success" in line for line in lines)
    # The room's own check (sky_visible) ends the method and the run, unasked, once it holds.
    assert any(line.startswith("  method explore-area: GOAL_REACHED after ") for line in lines)
    # the outcome names the words its check was read from
    assert ('outcome: success (verified: sky_visible holds: nothing opaque above the head, read from '
            f'"{GOAL}")') in lines
    assert "goal check after the run: sky_visible holds: nothing opaque above the head" in lines
    assert any(line.startswith("steps: 1 outer, ") and "LLM " in line for line in lines)
    assert any(line.startswith("tokens: ") and " in (" in line and " out" in line for line in lines)
    assert f"trace: {trace}" in lines
    assert read_trace(trace).end.outcome == "success"
    assert wait_until_gone(token, timeout_s=5) == []


def test_mcagent_run_refuses_bad_usage_with_exit_code_2(tmp_path):
    token = new_token()
    no_goal = mcagent("run", "--server", "127.0.0.1:1", token=token)  # no scenario states a goal there
    bad_llm = mcagent("run", "--goal", "g", "--llm", "gpt4", token=token)
    bad_steps = mcagent("run", "--goal", "g", "--max-steps", "0", token=token)
    assert [no_goal.returncode, bad_llm.returncode, bad_steps.returncode] == [2, 2, 2]
    assert "--goal is required unless the scenario has a goal: key" in no_goal.stderr
    assert "llm" in bad_llm.stderr and "sglang:URL" in bad_llm.stderr
    assert "expected a whole number from 1 to 1000" in bad_steps.stderr
    assert wait_until_gone(token, timeout_s=5) == []


def test_ctrl_c_ends_mcagent_run_cleanly_with_the_summary_and_the_trace(tmp_path):
    config = tmp_path / "mcagent.yaml"
    config.write_text(f"infospace: {tmp_path / 'notes.db'}\n")
    trace = tmp_path / "trace.jsonl"
    token = new_token()
    policy = NOTE_POLICY  # a new note each step: the run never ends by itself
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "run", "--goal", "keep notes of what you see", "--config", str(config), "--port", "0",
         "--llm", f"scripted:{policy}", "--max-steps", "1000", "--trace", str(trace)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
        preexec_fn=interruptible,
    )
    try:
        assert any(line.startswith("step 2 ") for line in proc.stdout), "the run never reached step 2"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "outcome: interrupted (interrupted by Ctrl-C)" in out and f"trace: {trace}" in out
    assert "Traceback" not in err
    assert read_trace(trace).end.outcome == "interrupted"
    assert wait_until_gone(token, timeout_s=5) == []


# Always the first tool offered, with arguments that change nothing: digging the air above the head.
STALE_POLICY = '''
def reply(call):
    if call.kind == "select":
        return call.choices[0]
    return '{"forward": 0, "up": 3}' if call.prompt.rstrip().endswith("TOOL_ARGS_JSON:") else "x"
'''


def test_mcagent_run_withholds_a_tool_that_changed_nothing_and_ends_when_none_is_left(tmp_path):
    policy = tmp_path / "stale_policy.py"
    policy.write_text(STALE_POLICY)
    trace = tmp_path / "run" / "trace.jsonl"
    token = new_token()
    done = mcagent("run", "--config", str(run_config(tmp_path)), "--scenario", "flat", "--port", "0", "--goal",
                   "dig out the block above", "--check", "feet_y_at_least: 50", "--llm", f"scripted:{policy}",
                   "--tools", "mc-dig,mc-status", "--trace", str(trace), token=token, timeout_s=120)
    assert done.returncode == 1, transcript(done)
    lines = done.stdout.splitlines()
    assert "tools offered (named: mc-dig, mc-status)" in lines
    assert "  LOOP: mc-dig changed nothing in the world; it is not offered again until something changes." in lines
    assert ("outcome: failed (the plan went round in circles: every tool offered (mc-dig, mc-status) was tried "
            "and nothing changed)") in lines
    steps = [e for e in read_trace(trace).events if isinstance(e, OuterStep)]
    assert [(s.tool, s.offered) for s in steps] == [("mc-dig", ["mc-dig", "mc-status"]), ("mc-status", ["mc-status"])]
    assert steps[0].result["code"] == "refused"
    assert wait_until_gone(token, timeout_s=5) == []


def test_plain_mcagent_run_with_the_embedded_model_offers_a_ranked_catalog_and_gets_out(tmp_path):
    trace = tmp_path / "run" / "trace.jsonl"
    token = new_token()
    done = mcagent("run", "--config", str(run_config(tmp_path)), "--scenario", "tunnel", "--port", "0",
                   "--llm", "llamacpp", "--trace", str(trace), token=token, timeout_s=300)
    assert done.returncode == 0, transcript(done)
    offered = next(line for line in done.stdout.splitlines() if line.startswith("tools offered (ranked: "))
    assert "explore-area" in offered and offered.endswith("; guidance: pit-and-cave-safety)")
    events = read_trace(trace).events
    start = next(e for e in events if isinstance(e, RunStart))
    assert start.catalog == "ranked" and "pit-and-cave-safety" not in start.tools and 4 <= len(start.tools) <= 6
    assert not start.capabilities.thoughts  # a 135M model is asked constrained choices only
    assert not [e for e in events if isinstance(e, ToolCall) and e.tool_type == "instruction"]
    assert all(not s.thoughts for s in events if isinstance(s, OuterStep))
    assert read_trace(trace).end.outcome == "success"
    assert wait_until_gone(token, timeout_s=5) == []
