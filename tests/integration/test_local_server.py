"""The local server launcher: readiness, clear failures, stopping, persistence."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from agent.bridge import connect
from agent.node import node_binary, node_environment
from agent.paths import SERVER_LAUNCHER
from agent.server import LocalServer, ServerInfo, ServerSettings
from agent.server.local_server import LOG_LINES_KEPT, ServerError
from agent.server.settings import persistence_note
from support.procs import env_with_token, new_token, wait_until_gone
from support.waiting import wait_for


def test_ready_line_reports_a_listening_port(server: ServerInfo) -> None:
    assert server.port > 0 and server.host == "127.0.0.1"
    assert (server.version, server.generator, server.seed) == ("1.20.4", "superflat", ServerSettings().seed)
    with socket.create_connection((server.host, server.port), timeout=2):
        pass


# Joins in the turning test: before the fix about a third of joins lost the turn.
TURNING_JOINS = 5
# A resend provoked by the turn comes within a physics tick or two (50 ms each).
RESEND_WAIT_S = 0.5


def test_a_bot_that_turns_the_moment_it_joins_stays_turned(server: ServerInfo) -> None:
    """flying-squid resends the login position and look once it hears the player move. It used
    to hear the first turn and answer with the look from before it, undoing the turn (and a bot
    that had walked was pulled back to spawn); see loginResendFollowsSpawn in
    bridge/lib/flying-squid-fixes.js. The race went either way, so join several times."""
    for i in range(TURNING_JOINS):
        with connect(port=server.port, username=f"turner{i}") as bot:
            spawn = bot.state().position
            assert bot.look(180.0).yaw_deg == 180.0
            time.sleep(RESEND_WAIT_S)
            after = bot.state()
            assert (after.yaw_deg, after.position) == (180.0, spawn), f"join {i + 1}"


def test_unsupported_version_is_a_clear_error() -> None:
    started = time.monotonic()
    with pytest.raises(ServerError, match=r"failed to start: unsupported protocol version: 1\.99"):
        LocalServer(ServerSettings(), version="1.99").start()
    assert time.monotonic() - started < 15


def test_port_in_use_is_a_clear_error(server: ServerInfo) -> None:
    with pytest.raises(ServerError, match=f"port {server.port} is already in use"):
        LocalServer(ServerSettings(), port=server.port).start()


def test_launcher_refuses_the_empty_generator() -> None:
    options = ServerSettings().flying_squid_options(host="127.0.0.1", port=0, version="1.20.4")
    options["generation"]["name"] = "empty"
    done = subprocess.run(
        [node_binary(), str(SERVER_LAUNCHER), json.dumps(options)],
        capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL, env=node_environment(),
    )
    assert done.returncode == 1
    assert json.loads(done.stdout.splitlines()[-1])["message"].startswith("generator 'empty' hangs flying-squid")


def test_stop_is_clean_and_idempotent() -> None:
    server = LocalServer(ServerSettings())
    server.start()
    proc = server._proc
    server.stop()
    assert proc.returncode == 0, "SIGTERM should end the server through its own shutdown"
    server.stop()
    assert not server.running()


def test_the_start_log_has_no_handler_registered_twice() -> None:
    """Our chests (bridge/lib/containers.js) take over from flying-squid's without registering a
    second handler for them, which flying-squid warned about at every start."""
    server = LocalServer(ServerSettings())
    with server:
        log = server.log_tail(LOG_LINES_KEPT)
    assert any("Server listening on port" in line for line in log)
    assert [line for line in log if "registered twice" in line] == []


def test_server_dies_with_its_parent() -> None:
    """SIGKILL the Python process that started the server: the server follows within 5 s."""
    token = new_token()
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent("""
            import time
            from agent.server import LocalServer, ServerSettings
            server = LocalServer(ServerSettings())
            server.start()
            print(server.pid, flush=True)
            time.sleep(60)
        """)],
        stdout=subprocess.PIPE, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
    )
    try:
        assert child.stdout.readline().strip().isdigit(), "child did not start its server"
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert wait_until_gone(token, timeout_s=5) == []
    finally:
        child.kill()


def test_world_folder_persists_blocks_across_restarts(tmp_path: Path) -> None:
    # Block edits round-trip through flying-squid's anvil files up to 1.16.5 only (see persistence_note).
    settings = ServerSettings(world=tmp_path / "world")
    with LocalServer(settings, version="1.16.5") as info:
        with connect(port=info.port, username="builder") as bot:
            bot.chat("/setblock 3 4 3 gold_block")
            assert _block_name(bot, 3, 4, 3) == "gold_block"
    assert (tmp_path / "world" / "level.dat").is_file()
    with LocalServer(settings, version="1.16.5") as info:
        with connect(port=info.port, username="builder") as bot:
            assert _block_name(bot, 3, 4, 3) == "gold_block"


def test_a_server_killed_and_restarted_puts_back_the_blocks_changed_on_1_20_4(tmp_path: Path) -> None:
    # SIGKILL saves nothing, and 1.20.4 chunks are never saved: the journal brings the changes back.
    server = LocalServer(ServerSettings(), port=0, journal=tmp_path / "blocks.jsonl")
    try:
        first = server.start()
        with connect(port=first.port, username="builder") as bot:
            bot.chat("/setblock 3 4 3 gold_block")
            assert _block_name(bot, 3, 4, 3) == "gold_block"
        os.kill(server.pid, signal.SIGKILL)
        assert wait_for(lambda: not server.running()) and server.ended_how() == "killed by signal 9"
        again = server.restart()
        assert again.port == first.port and again.restored >= 1
        with connect(port=again.port, username="builder") as bot:
            assert _block_name(bot, 3, 4, 3) == "gold_block"
    finally:
        server.stop()


def test_world_folder_keeps_its_seed_on_1_20_4(tmp_path: Path) -> None:
    with LocalServer(ServerSettings(world=tmp_path / "w", seed=111)) as first:
        pass
    with LocalServer(ServerSettings(world=tmp_path / "w", seed=222)) as second:
        pass
    assert first.seed == 111 and second.seed == 111, "the world folder's level.dat should win over the setting"
    assert persistence_note("1.20.4") and persistence_note("1.16.5") is None


def _block_name(bot, x: int, y: int, z: int, timeout_s: float = 5.0) -> str | None:
    """Name of one block as the bot sees it, waiting for the chunk and the change to arrive."""
    deadline = time.monotonic() + timeout_s
    while (name := bot.block_at(x, y, z)) != "gold_block" and time.monotonic() < deadline:
        time.sleep(0.1)
    return name
