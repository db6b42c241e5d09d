"""Watching and steering a real run: the chat allowlist over `mcagent run`, and `replay --live`
of a recorded run on a fresh server while a second bot watches."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

from agent.bridge import connect
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.trace import read_trace
from agent.trace.schema import Command, ToolResult
from support.procs import env_with_token, interruptible, mcagent, new_token, transcript, wait_until_gone
from support.observing import seen
from support.planning import EXPLORE_POLICY, NOTE_POLICY, run_config
from support.waiting import wait_for

def _next_step_line(proc: subprocess.Popen[str]) -> str:
    return next(line for line in proc.stdout if line.startswith("step "))


def test_only_an_allowlisted_players_stop_ends_the_run(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    token = new_token()
    with LocalServer(ServerSettings(), scenario=load_scenario("flat")) as info:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "run", "--goal", "keep notes of what you see", "--config", str(run_config(tmp_path, "chat_allowlist: [boss]\n")),
             "--server", f"127.0.0.1:{info.port}", "--llm", f"scripted:{NOTE_POLICY}",
             "--max-steps", "1000", "--trace", str(trace)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token),
            stdin=subprocess.DEVNULL, preexec_fn=interruptible,
        )
        try:
            _next_step_line(proc)
            with connect(port=info.port, username="stranger") as stranger, connect(port=info.port, username="boss") as boss:
                stranger.chat("!stop")
                refused = wait_for(lambda: [e for e in read_trace(trace).events if isinstance(e, Command)], timeout_s=10)
                assert refused and refused[0].player == "stranger" and not refused[0].accepted
                for _ in range(3):  # the run goes on
                    _next_step_line(proc)
                assert proc.poll() is None
                boss.chat("!stop")
                out, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
    assert proc.returncode == 1, err  # stopped: the goal was neither reached nor claimed
    done = read_trace(trace)
    assert done.end is not None and done.end.outcome == "stopped"
    assert [(c.player, c.accepted) for c in done.events if isinstance(c, Command)] == [("stranger", False), ("boss", True)]
    assert wait_until_gone(token, timeout_s=5) == []


def test_live_replay_of_a_recorded_run_ends_where_it_did_while_a_bot_watches(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    recorded = mcagent("run", "--goal", "get out of the room to open sky", "--config", str(run_config(tmp_path)),
                       "--scenario", "room", "--port", "0", "--llm", f"scripted:{EXPLORE_POLICY}",
                       "--trace", str(trace), token=new_token(), timeout_s=180)
    assert recorded.returncode == 0, transcript(recorded)
    results = [e for e in read_trace(trace).events if isinstance(e, ToolResult) and e.pose_after]
    recorded_end = results[-1].pose_after

    with LocalServer(ServerSettings(), scenario=load_scenario("room")) as info, \
         connect(port=info.port, username="watcher") as watcher:
        token = new_token()
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "replay", str(trace), "--live", "--config", str(run_config(tmp_path)),
             "--server", f"127.0.0.1:{info.port}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
        )
        try:
            first = wait_for(lambda: seen(watcher, "mcagent"), timeout_s=30)
            assert first, "the watching bot never saw the replaying bot"
            last = first
            while proc.poll() is None:  # follow the replaying bot until the replay ends
                last = seen(watcher, "mcagent") or last
                time.sleep(0.05)
            out, err = proc.communicate(timeout=120)
        finally:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert last.position.distance_to(first.position) > 3, "the watching bot never saw the replaying bot move"
    end = last.position
    assert math.dist((end.x, end.y, end.z), (recorded_end.x, recorded_end.y, recorded_end.z)) < 1.0
    assert ": 0 divergences; the bot ended at" in out, out
    assert wait_until_gone(token, timeout_s=5) == []

