"""A bot that lost its server fails its next call at once with the reason, never hangs."""

from __future__ import annotations

import time

import pytest

from agent.bridge import BotConnection, BotDisconnected, connect
from agent.server import LocalServer, ServerInfo, ServerSettings
from support.waiting import wait_for


def test_kicked_bot_reports_the_kick(server: ServerInfo, bot: BotConnection) -> None:
    with connect(port=server.port, username="kickme") as victim:
        mark = victim.events.last_seq
        bot.chat("/kick kickme too noisy")
        kicked = victim.events.wait_for("kicked", timeout_s=5, after=mark)
        assert "too noisy" in kicked.reason
        started = time.monotonic()
        with pytest.raises(BotDisconnected, match="kicked.*too noisy"):
            victim.state()
        assert time.monotonic() - started < 0.5
        assert not victim.connected


def test_server_shutdown_surfaces_on_the_next_call() -> None:
    with LocalServer(ServerSettings()) as info:
        victim = connect(port=info.port, username="stranded")
    # the server is gone now
    assert wait_for(lambda: not victim.connected), "the bot never noticed the server stopped"
    with pytest.raises(BotDisconnected, match="disconnected"):
        victim.look(0, 0)
    victim.close()
