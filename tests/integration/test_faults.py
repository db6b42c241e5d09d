"""Faults in the world during `mcagent run`, on real servers: the local server killed mid-move,
a kick, a death in lava. The run notices at once, brings the bot back and goes on, or ends
`disconnected` at once when it may not. Each run is a process of its own (one Node bridge
per process), watched from its output and its trace."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from agent.bridge import connect
from agent.infospace import Infospace
from agent.tools import Executor, load_toolbox, standard_sources
from agent.trace import TraceError, read_trace
from agent.trace.schema import Death, MethodEnd, Rejoin, Respawn, ToolCall, ToolResult
from support.planning import EXPLORE_POLICY, FIXTURES, run_config
from support.procs import env_with_token, new_token, node_descendants, wait_until_gone
from support.tool_folders import python_tool
from support.waiting import wait_for

LAVA_WALK_POLICY = FIXTURES / "planner" / "lava_walk_policy.py"
_WHERE = re.compile(r"^local server: Minecraft \S+ at 127\.0\.0\.1:(\d+)$")
# The tunnel walk takes ~10 s; this long after it was called the bot is mid-way.
INTO_THE_WALK_S = 1.0
# From the local server's start to the walk's call: the bridge starts and the bot joins (~5 s),
# much longer with other test processes on both cores.
WALK_CALLED_S = 120.0


def _run(tmp_path: Path, scenario: str, policy: Path, act: Callable[[int, int, Path], None] | None = None,
         config: str = "", max_steps: int = 3,
         flags: tuple[str, ...] = ()) -> tuple[subprocess.CompletedProcess[str], Path]:
    """`mcagent run` on `scenario` (with `flags`); `act(server_pid, port, trace)` once the local
    server is up; the finished process and its trace."""
    trace, token = tmp_path / "run" / "trace.jsonl", new_token()
    command = [sys.executable, "-m", "agent.cli", "run", "--config", str(run_config(tmp_path, config)),
               "--scenario", scenario, "--port", "0", "--llm", f"scripted:{policy}",
               "--max-steps", str(max_steps), "--method-max-steps", "12", "--trace", str(trace), *flags]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env_with_token(token), stdin=subprocess.DEVNULL)
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            found = _WHERE.match(line.strip())
            if found:
                if act:
                    act(_server_pid(proc.pid), int(found[1]), trace)
                break
        out, err = proc.communicate(timeout=180)
    finally:
        proc.kill()
    assert wait_until_gone(token, timeout_s=5) == []
    return subprocess.CompletedProcess(command, proc.returncode, "".join(lines) + out, err), trace


def _server_pid(pid: int) -> int:
    return next(p for p in node_descendants(pid) if "server.js" in Path(f"/proc/{p}/cmdline").read_text())


def _into_the_walk(trace: Path) -> None:
    """Returns once the run's mc-explore has walked for INTO_THE_WALK_S: the run's own trace says
    when it was called (a fixed time after the server's start may still be before the bot joined)."""
    assert wait_for(lambda: _walk_called(trace), timeout_s=WALK_CALLED_S), "mc-explore was never called"
    time.sleep(INTO_THE_WALK_S)


def _walk_called(trace: Path) -> bool:
    try:
        events = read_trace(trace).events
    except TraceError:  # not written yet
        return False
    return any(isinstance(e, ToolCall) and e.tool == "mc-explore" for e in events)


def _kill(server_pid: int, port: int, trace: Path) -> None:
    _into_the_walk(trace)
    os.kill(server_pid, signal.SIGKILL)


def _cut_walk(events: list) -> int | None:
    """Where in `events` the explore walk the loss cut short ended: with the loss's code, not at its timeout."""
    return next((i for i, e in enumerate(events) if isinstance(e, ToolResult) and e.tool == "mc-explore"
                 and e.result.get("code") == "disconnected"), None)


def test_server_killed_mid_move_is_restarted_and_the_run_resumes_to_its_goal(tmp_path: Path) -> None:
    done, trace = _run(tmp_path, "long-tunnel", EXPLORE_POLICY, _kill)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "outcome: success" in done.stdout
    assert "world: the bot joined again 1 time(s), died and was respawned 0 time(s)" in done.stdout
    events = read_trace(trace).events
    assert _cut_walk(events) is not None
    rejoin = next(e for e in events if isinstance(e, Rejoin))
    assert rejoin.server_restarted and rejoin.attempts >= 1
    assert read_trace(trace).end.rejoins == 1
    # explore-area is resumable: it went on after the rejoin instead of ending INTERRUPTED.
    assert not any(isinstance(e, MethodEnd) and e.outcome == "INTERRUPTED" for e in events)


def test_without_a_restart_the_run_ends_disconnected_after_the_cut_walk(tmp_path: Path) -> None:
    done, trace = _run(tmp_path, "long-tunnel", EXPLORE_POLICY, _kill, "reconnect: {restart_server: false}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "outcome: disconnected (the local server died (killed by signal 9" in done.stdout
    assert [line for line in done.stderr.splitlines() if "disconnected" in line] == [
        next(line for line in done.stderr.splitlines() if line.startswith("mcagent: disconnected: "))]
    events, end = read_trace(trace).events, read_trace(trace).end
    assert end is not None and end.outcome == "disconnected" and end.rejoins == 0
    # At once: no tool was called after the walk the loss cut short, and no rejoin was tried.
    cut = _cut_walk(events)
    assert cut is not None and not any(isinstance(e, (ToolCall, Rejoin)) for e in events[cut:])


def test_a_kicked_bot_joins_again_and_the_run_goes_on(tmp_path: Path) -> None:
    def kick(server_pid: int, port: int, trace: Path) -> None:
        with connect(port=port, username="moderator") as moderator:  # joined first: the kick lands mid-walk
            _into_the_walk(trace)
            moderator.chat("/kick mcagent testing the rejoin")
            time.sleep(0.5)

    done, trace = _run(tmp_path, "long-tunnel", EXPLORE_POLICY, kick)
    assert done.returncode == 0, done.stdout + done.stderr
    rejoin = next(e for e in read_trace(trace).events if isinstance(e, Rejoin))
    assert "kicked" in rejoin.lost and "testing the rejoin" in rejoin.lost
    assert not rejoin.server_restarted
    assert read_trace(trace).end.rejoins == 1


# The lava walk is the test's doing, not the model's choice: mc-move is the one tool offered.
WALK_ONLY = ("--tools", "mc-move")


def test_a_death_in_lava_is_respawned_counted_and_the_run_goes_on(tmp_path: Path) -> None:
    # Only the sky is asked for here: the scenario's own check, lava avoided, would end the run (below).
    done, trace = _run(tmp_path, "lava-path", LAVA_WALK_POLICY, max_steps=3,
                       flags=("--check", "sky_visible: true", *WALK_ONLY))
    assert "Traceback" not in done.stderr
    events = read_trace(trace).events
    assert any(isinstance(e, Death) for e in events)
    back = next(i for i, e in enumerate(events) if isinstance(e, Respawn))
    end = read_trace(trace).end
    assert end.deaths >= 1
    assert f"died and was respawned {end.deaths} time(s)" in done.stdout
    # It went on: a step ran after the death, by a bot that was alive again.
    later = [e for e in events[back:] if isinstance(e, ToolResult) and e.tool == "mc-move"]
    assert later and later[0].result.get("code") != "dead"


def test_a_walk_into_the_lava_a_goal_says_to_avoid_ends_the_run_failed_at_once(tmp_path: Path) -> None:
    done, trace = _run(tmp_path, "lava-path", LAVA_WALK_POLICY, max_steps=3, flags=WALK_ONLY)
    end = read_trace(trace).end
    assert end is not None and end.outcome == "failed", done.stdout + done.stderr
    assert end.reason.startswith("the goal can no longer be reached: not all hold: ")
    assert "avoided lava is false: was in lava at (" in end.reason
    assert end.steps == 1  # nothing more was asked after the step that went into the lava


def test_a_hanging_python_tool_times_out_and_the_bot_goes_on(tmp_path: Path, bot) -> None:
    """A tool that drives the bot and then hangs: `timeout` after its bound, the bot still answers,
    and the abandoned tool's later world calls are refused."""
    entry = python_tool(tmp_path / "tools", "hang", """
        import time
        LATER = []

        def tool(input_value=None, **kwargs):
            executor = kwargs['executor']
            executor.execute_action({'type': 'mc-look', 'yaw': 90})
            time.sleep(2)
            LATER.append(executor.execute_action({'type': 'mc-look', 'yaw': 0}))
        """, description="looks, then hangs", meta="timeout_s: 1")
    toolbox = load_toolbox(standard_sources("minecraft", [tmp_path / "tools"]))
    executor = Executor(toolbox, Infospace.open(":memory:"), world=bot)
    started = time.monotonic()
    result = executor.execute_action({"type": "hang"})
    assert result.code == "timeout" and result.reason == "hang did not finish within 1 s"
    assert time.monotonic() - started < 1.5
    assert executor.execute_action({"type": "mc-status"}).ok
    time.sleep(1.5)
    later = executor._python._entries[entry].__globals__["LATER"]
    assert later and later[0].code == "timeout"  # refused: it may not act any more
    assert bot.state().yaw_deg == pytest.approx(90, abs=0.5)  # its second look never reached the bot
