"""One real flying-squid server and one real bot for the whole session.

Tests that need a world of their own (persistence, server death) start their
own LocalServer; everything else shares these, for speed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from agent.bridge import BotConnection, connect, runtime
from support.observing import seen
from support.waiting import wait_for
from agent.server import LocalServer, ServerInfo, ServerSettings
from agent.tools import Toolbox, load_toolbox, standard_sources
from support.procs import node_descendants
from support.world_body import Body, scenario_body


@pytest.fixture(scope="session", autouse=True)
def no_leftover_processes() -> Iterator[None]:
    """Set up first, torn down last: after everything else stopped, no Node process may remain."""
    yield
    runtime.shutdown()
    assert not node_descendants(os.getpid()), "Node processes outlived the test session"


@pytest.fixture(scope="session")
def server() -> Iterator[ServerInfo]:
    with LocalServer(ServerSettings(), port=0) as info:
        yield info


@pytest.fixture(scope="session")
def bot(server: ServerInfo) -> Iterator[BotConnection]:
    with connect(port=server.port, username="tester") as conn:
        yield conn


@pytest.fixture(scope="session")
def observer(server: ServerInfo, bot: BotConnection) -> Iterator[BotConnection]:
    """A second bot that watches the first one through the server.

    It is handed out only once it sees the first bot: the server relays a player's moves
    only to players who already have it in view, so an earlier move would never arrive.
    """
    with connect(port=server.port, username="observer") as conn:
        assert wait_for(lambda: seen(conn, bot.username)), "the observer never saw the bot"
        yield conn


@pytest.fixture(scope="session")
def toolbox() -> Toolbox:
    """The Minecraft world tools, loaded once (tests that need skills too load their own)."""
    return load_toolbox(standard_sources("minecraft", []))


# The room and the flat field are shared by several tools' test files, so each is started once.
# A test takes the bot where it needs it (Body.teleport) and changes only blocks of its own.


@pytest.fixture(scope="session")
def room(toolbox: Toolbox) -> Iterator[Body]:
    """The closed stone room (server-config/scenarios/room.yaml); doorway in the north wall."""
    yield from scenario_body("room", "roomie", toolbox)


@pytest.fixture(scope="session")
def flat(toolbox: Toolbox) -> Iterator[Body]:
    """An open superflat field, grass at y=4 (server-config/scenarios/flat.yaml)."""
    yield from scenario_body("flat", "walker", toolbox)
