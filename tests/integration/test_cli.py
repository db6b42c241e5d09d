"""The mcagent commands as a person runs them: output, one-line errors, exit codes, no leftovers."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from agent.bridge.models import BotState
from agent.infospace import Infospace
from agent.server import ServerInfo
from support.procs import env_with_token, interruptible, mcagent, new_token, processes_with_token, transcript, wait_until_gone
from support.waiting import wait_for

# What the issue promises for every failed connect: one line and an exit within this.
CONNECT_FAILURE_BOUND_S = 15


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _one_clean_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def test_connect_prints_the_pose_as_json(server: ServerInfo) -> None:
    token = new_token()
    done = mcagent("connect", "--port", str(server.port), "--username", "cli_bot", token=token)
    assert done.returncode == 0, transcript(done)
    state = BotState.model_validate(json.loads(done.stdout))
    assert state.username == "cli_bot" and state.version == "1.20.4"
    assert wait_until_gone(token, timeout_s=5) == []


def test_connect_to_a_closed_port_fails_fast_and_cleanly() -> None:
    token = new_token()
    port = _free_port()
    started = time.monotonic()
    done = mcagent("connect", "--port", str(port), token=token)
    assert time.monotonic() - started < CONNECT_FAILURE_BOUND_S
    assert done.returncode == 1
    assert _one_clean_line(done.stderr) == f"mcagent connect: no server is listening at 127.0.0.1:{port}"
    assert wait_until_gone(token, timeout_s=5) == []


def test_connect_with_a_version_the_server_refuses(server: ServerInfo) -> None:
    token = new_token()
    started = time.monotonic()
    done = mcagent("connect", "--port", str(server.port), "--version", "1.12.2", token=token)
    assert time.monotonic() - started < CONNECT_FAILURE_BOUND_S
    assert done.returncode == 1
    line = _one_clean_line(done.stderr)
    assert line == (
        f"mcagent connect: 127.0.0.1:{server.port} speaks Minecraft 1.20.4 (protocol 765), "
        "not 1.12.2 (protocol 340); leave the version out to use the server's"
    )
    assert wait_until_gone(token, timeout_s=5) == []


def test_bad_flag_value_is_one_line() -> None:
    done = mcagent("connect", "--port", "seventy", token=new_token())
    assert done.returncode == 2
    assert "invalid int value: 'seventy'" in _one_clean_line(done.stderr)


def test_port_out_of_range_names_the_key_and_the_range() -> None:
    done = mcagent("connect", "--port", "70000", token=new_token())
    assert done.returncode == 2
    line = _one_clean_line(done.stderr)
    assert "command line: server.port" in line and "65535" in line


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_server_command_serves_until_signalled(stop_signal: signal.Signals) -> None:
    token = new_token()
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "server", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
        preexec_fn=interruptible,
    )
    try:
        # the server's own log lines come first; the join instructions follow the ready line
        ready = next(m for line in proc.stdout if (m := re.search(r"server ready at 127\.0\.0\.1:(\d+)", line)))
        port = int(ready.group(1))
        assert f"Direct Connection > 127.0.0.1:{port}" in proc.stdout.readline()
        joined = mcagent("connect", "--port", str(port), "--username", "visitor", token=new_token())
        assert joined.returncode == 0, transcript(joined)
        proc.send_signal(stop_signal)
        proc.wait(timeout=10)
        assert wait_until_gone(token, timeout_s=5) == []
    finally:
        proc.kill()


def test_call_runs_tools_in_order_and_prints_json_lines() -> None:
    token = new_token()
    done = mcagent("call", "mc-look", '{"facing": "north"}', "mc-observe-blocks", '{"radius": 4}', "--scenario", "room", "--port", "0",
                   "--scratch", token=token)
    assert done.returncode == 0, transcript(done)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["tool"], r["status"]) for r in lines] == [("mc-look", "success"), ("mc-observe-blocks", "success")]
    assert lines[1]["data"]["free"]["forward"] == 4 and lines[1]["data"]["sky_visible"] is False
    assert wait_until_gone(token, timeout_s=5) == []


def test_call_with_a_failing_tool_prints_it_and_exits_1() -> None:
    # The east wall is 3.2 blocks off: about 0.85 s of walking, then a collision is 3 ticks of pushing.
    # 1 s left too little to spare, and a loaded machine's walk ended before the wall.
    done = mcagent("call", "mc-move", '{"forward": true, "duration": 2}', "--scenario", "room", "--port", "0", "--scratch",
                   token=new_token())
    assert done.returncode == 1
    assert json.loads(done.stdout)["status"] == "failed" and json.loads(done.stdout)["code"] == "collision"
    assert done.stderr.splitlines() == ["infospace: a scratch one, gone when this command ends",
                                        "mcagent call: 1 of 1 calls failed"]


def test_call_keeps_its_notes_in_the_configured_infospace(tmp_path) -> None:
    notes = tmp_path / "notes.db"
    config = tmp_path / "mcagent.yaml"
    config.write_text(f"infospace: {notes}\n")
    note = '{"content": "iron at 12 40 -3"}'
    kept = mcagent("call", "create-note", note, "--config", str(config), "--port", "0", token=new_token())
    assert kept.returncode == 0, transcript(kept)
    assert kept.stderr.splitlines() == [f"infospace: {notes}"]
    scratch = mcagent("call", "create-note", '{"content": "gone"}', "--config", str(config), "--port", "0", "--scratch",
                      token=new_token())
    assert scratch.returncode == 0, transcript(scratch)
    space = Infospace.open(notes)
    try:
        assert [n.content for n in space.store.search_notes("iron", limit=5)] == ["iron at 12 40 -3"]
        assert space.store.search_notes("gone", limit=5) == []
    finally:
        space.close()


def test_call_refuses_a_misspelt_tool_before_starting_anything() -> None:
    done = mcagent("call", "mc-lok", token=new_token())
    assert done.returncode == 2
    assert _one_clean_line(done.stderr) == "mcagent call: no tool named 'mc-lok'; did you mean 'mc-look'?"
    bad_json = mcagent("call", "mc-look", "{facing: north}", token=new_token())
    assert bad_json.returncode == 2 and "mc-look are not valid JSON" in _one_clean_line(bad_json.stderr)


def test_ctrl_c_in_a_terminal_ends_cleanly_with_130() -> None:
    """A terminal's Ctrl-C signals the whole process group: Python, the bridge and the server."""
    token = new_token()
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "call", "mc-wait", '{"seconds": 30}', "--port", "0", "--scratch"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_token(token),
        stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=interruptible,
    )
    try:
        assert wait_for(lambda: len(processes_with_token(token)) >= 3, timeout_s=30), "server and bridge never started"
        time.sleep(1)  # let the bot spawn and the wait begin
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 130
        assert err.splitlines() == ["infospace: a scratch one, gone when this command ends", "mcagent call: interrupted"]
        assert wait_until_gone(token, timeout_s=5) == []
    finally:
        proc.kill()
