"""The web viewer: served, bound to loopback only, stopped with its bot."""

from __future__ import annotations

import urllib.request

import pytest

from agent.bridge import BridgeError, connect
from agent.server import ServerInfo
from support.procs import listening_addresses


def test_viewer_serves_its_page_on_loopback_only(server: ServerInfo) -> None:
    with connect(port=server.port, username="watched") as bot:
        viewer = bot.start_viewer(0)
        assert viewer.host == "127.0.0.1" and viewer.url == f"http://127.0.0.1:{viewer.port}/"
        page = urllib.request.urlopen(viewer.url, timeout=5).read().decode()
        assert "Prismarine Viewer" in page
        assert listening_addresses(viewer.port) == ["0100007F"]  # 127.0.0.1, and nothing else
        with pytest.raises(BridgeError, match="already running"):
            bot.start_viewer(0)
    assert listening_addresses(viewer.port) == [], "the viewer outlived its bot"


def test_a_taken_port_is_a_clear_error(server: ServerInfo) -> None:
    with connect(port=server.port, username="clasher") as bot:
        with pytest.raises(BridgeError, match=f"port {server.port} on 127.0.0.1 is already in use"):
            bot.start_viewer(server.port)
