"""Traces of real runs: a scripted run in the room writes every event kind (a second player
provokes the chat, a command, a death, a respawn and a kick); `mcagent replay` and
`mcagent report` read the trace, a truncated one too; `--llm replay:` reproduces the tool
sequence exactly."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import get_args

from agent.bridge import connect
from agent.config import AgentConfig
from agent.infospace import Infospace
from agent.llm.scripted import ScriptedBackend, load_script
from agent.paths import SKILLS_DIR
from agent.planner import Planner, PlannerOptions
from agent.planner.tool_trace import ToolTrace
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.session import WorldSession
from agent.session.watching import watching
from agent.tools import Executor, load_toolbox, standard_sources
from agent.trace import Event, TraceWriter, read_trace
from agent.config.model import ReconnectSettings
from agent.session.keeper import BodyKeeper
from agent.session.milestones import MilestoneWatch
from agent.checks import parse_check
from agent.trace.schema import ToolCall
from agent.checks import evaluate
from agent.goals import understand
from agent.planner.focus import Focus
from agent.session.run import hidden_judge
from agent.session.build_seen import record_builds
from support.planning import EXPLORE_POLICY, act, in_field_order, reflect, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone

GOAL = "get out of the room to open sky"
EVENT_WAIT_S = 10


def _wait_for(writer: TraceWriter, kind: str) -> None:
    deadline = time.monotonic() + EVENT_WAIT_S
    while not any(e.event == kind for e in writer.events):
        assert time.monotonic() < deadline, f"no {kind} event within {EVENT_WAIT_S} s"
        time.sleep(0.05)


def test_a_scripted_run_in_the_room_writes_every_event_kind(tmp_path):
    toolbox = load_toolbox(standard_sources("minecraft", [Path("skills")], base=SKILLS_DIR.parent))
    writer = TraceWriter(tmp_path / "trace.jsonl")
    config = AgentConfig(chat_allowlist=["alex"], username="tracer")
    with LocalServer(ServerSettings(), port=0, scenario=load_scenario("room")) as info:
        with connect(port=info.port, username="tracer") as bot, connect(port=info.port, username="alex") as alex:
            backend = load_script(EXPLORE_POLICY)
            planner = Planner(backend, toolbox, PlannerOptions(max_steps=3), writer)
            session = WorldSession(bot, info, f"127.0.0.1:{info.port}", config=config)
            # The open sky as a milestone too: read after every tool call, written when it first holds.
            observer = MilestoneWatch(ToolTrace(writer), [parse_check({"sky_visible": True}, "m")], session, backend, writer)
            executor = Executor(toolbox, Infospace.open(":memory:"), world=bot, llm=backend, method_runner=planner,
                                subplanner=planner, observer=observer)
            with watching(session, planner, config):
                planner.control.add_goal(GOAL + ", now")
                # The goal's words read as its sub-goal (understood, focused), no check given: DONE stands.
                focus = Focus(understand(GOAL), lambda check: evaluate(bot, check))
                assert planner.run(GOAL, executor, focus=focus).outcome == "done"
                hidden_judge(session, parse_check({"sky_visible": True}, "judge"), writer)
                # A step the check gave its arguments to fails for want of items: they become needs.
                wants = understand("craft a stone pickaxe")
                needing = Planner(ScriptedBackend(in_field_order([*act("mc-craft", {"item": "stone_pickaxe", "count": 1}),
                                                                  *reflect()])),
                                  toolbox, PlannerOptions(max_steps=1, tools=["mc-craft"]), writer)
                needing.run("craft a stone pickaxe", executor, check=wants.check,
                            judge=lambda: evaluate(bot, wants.check), focus=Focus(wants, lambda c: evaluate(bot, c)))
                # The build a check names, read in the world after a run (here nothing is built).
                record_builds(bot, parse_check({"blueprint": {"anchor": [0, 5, 3], "blocks": [
                    {"at": [0, 0, 0], "block": "dirt"}]}}, "c"), writer)
                alex.chat("!status")
                _wait_for(writer, "command")
                alex.chat("/kill tracer")
                _wait_for(writer, "death")
                assert executor.execute_action({"type": "mc-respawn"}).ok
                _wait_for(writer, "respawn")
                # An LLM that cannot answer: the run records the error and still ends with run_end.
                failing = Planner(ScriptedBackend([]), toolbox, PlannerOptions(max_steps=1), writer)
                assert failing.run("fail", executor).outcome == "llm_error"
                alex.chat("/kick tracer")
                _wait_for(writer, "disconnect")
                assert BodyKeeper(session, ReconnectSettings(), writer.add).after_step().rejoined
                session.bot.close()
    writer.close()
    events = read_trace(tmp_path / "trace.jsonl").events
    kinds = {member.model_fields["event"].default for member in get_args(get_args(Event)[0])}
    # message_read needs another player talking to the bot: tests/integration/test_working_together.py;
    # chat_goal, a goal said to it in chat: tests/integration/test_chat_commands.py
    assert kinds - {e.event for e in events} == {"message_read", "chat_goal"}
    explored = [e for e in events if e.event == "tool_result" and e.tool == "mc-explore"]
    assert explored and all(m.pose_after.z < m.pose_before.z for m in explored)  # north, out of the doorway
    chats = [e.message for e in events if e.event == "chat"]
    assert "explore-area started" in chats and "explore-area ended: DISCOVERY" in chats


def test_replay_report_and_llm_replay_read_a_real_runs_trace(tmp_path):
    config = run_config(tmp_path)
    common = ("--config", str(config), "--scenario", "room", "--port", "0", "--max-steps", "2")
    token = new_token()
    trace = tmp_path / "run" / "trace.jsonl"
    done = mcagent("run", "--goal", GOAL, *common, "--llm", f"scripted:{EXPLORE_POLICY}", "--trace", str(trace),
                   token=token, timeout_s=120)
    assert done.returncode == 0, transcript(done)

    shown = mcagent("replay", str(trace), token=token)
    assert shown.returncode == 0, transcript(shown)
    assert re.search(r"^step 1\.1 +mc-explore", shown.stdout, re.MULTILINE) and "thoughts: " in shown.stdout
    assert "outcome: success (verified: " in shown.stdout and "abnormally" not in shown.stdout
    assert "goal reached (verified after step 1): sky_visible holds" in shown.stdout
    only = mcagent("replay", str(trace), "--tools-only", token=token).stdout.splitlines()
    assert only and all(line.startswith("call ") for line in only)

    text = trace.read_text()
    cut = tmp_path / "killed.jsonl"
    cut.write_text(text[: text.index('"event":"run_end"')])  # killed while writing run_end
    killed = mcagent("replay", str(cut), token=token)
    assert killed.returncode == 0 and "note: the run ended abnormally" in killed.stdout
    assert re.search(r"^step 1 +explore-area", killed.stdout, re.MULTILINE)

    report = tmp_path / "report.html"
    assert mcagent("report", str(trace), "-o", str(report), token=token).returncode == 0
    html = report.read_text()
    steps = [e for e in read_trace(trace).events if e.event in ("outer_step", "method_step")]
    # one inner step (mc-explore walks out) and the outer one: the room's check ends the method
    assert '<polyline id="path"' in html and html.count('<tr class="step ') == len(steps) == 2
    # the map is drawn from what the run saw (map.sqlite beside the trace): walls, stood-on cells
    assert (trace.parent / "map.sqlite").is_file()
    assert '<rect class="wall"' in html and '<rect class="visited"' in html

    again = tmp_path / "again" / "trace.jsonl"
    replayed = mcagent("run", "--goal", GOAL, *common, "--llm", f"replay:{trace}", "--trace", str(again),
                       token=token, timeout_s=120)
    assert replayed.returncode == 0, transcript(replayed)
    tools = [[(e.tool, e.args) for e in read_trace(t).events if isinstance(e, ToolCall)] for t in (trace, again)]
    assert tools[0] == tools[1]
    assert wait_until_gone(token, timeout_s=5) == []
