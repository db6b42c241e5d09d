"""The bot's basics on each Minecraft version the README's version table names, on real
flying-squid servers: join, observe at four headings, move, dig, place and chat. Each version
gets a local server of its own, with the flat scenario, and one bot."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from agent.node import node_binary
from agent.tools import Toolbox
from support.procs import node_descendants
from support.waiting import wait_for
from support.world_body import Body, scenario_body

# The oldest with persistent block changes, the project's default, flying-squid's newest.
VERSIONS = ["1.16.5", "1.20.4", "1.21.4"]
FACINGS = ["north", "east", "south", "west"]


@pytest.fixture(scope="module", params=VERSIONS)
def body(request, toolbox: Toolbox) -> Iterator[Body]:
    yield from scenario_body("flat", "matrix", toolbox, version=request.param)


def test_join_and_read_the_bot(body: Body, request) -> None:
    status = body.ok("mc-status")
    assert status["version"] == request.node.callspec.params["body"]
    assert status["position"] == {"x": 0.5, "y": 5.0, "z": 0.5} and status["health"] == 20


def test_observe_at_four_headings(body: Body) -> None:
    for facing in FACINGS:
        assert body.ok("mc-look", facing=facing, pitch=0)["facing"] == facing
        seen = body.ok("mc-observe-blocks")
        assert seen["sky_visible"] is True and seen["footing_ahead"] == "grass_block", facing


def test_move_dig_and_place(body: Body) -> None:
    body.ok("mc-look", facing="south", pitch=0)
    assert body.ok("mc-move", blocks=2)["moved"] == pytest.approx(2, abs=0.3)
    dug = body.ok("mc-dig", forward=1, up=-1)
    assert dug["block"] == "grass_block" and dug["gone"] is True
    body.bot.chat("/give matrix dirt 1")  # set-up: something to place
    assert wait_for(lambda: any(i["name"] == "dirt" for i in body.ok("mc-inventory")["items"]))
    placed = body.ok("mc-place", item="dirt", forward=1, up=-1)
    assert placed["placed"] is True and body.ok("mc-observe-blocks")["footing_ahead"] == "dirt"


def test_chat_goes_round_the_server(body: Body) -> None:
    mark = body.bot.events.last_seq
    assert body.ok("mc-say", text="hello from the matrix")
    heard = body.bot.events.wait_for("chat", timeout_s=5, after=mark,
                                     match=lambda e: e.message == "hello from the matrix")
    assert heard.username == "matrix"


def test_the_server_and_the_bridge_run_on_the_node_doctor_reports(body: Body) -> None:
    # Both Node processes are this test process's descendants: the bridge (JSPyBridge) and the server.
    pids = node_descendants(os.getpid())
    assert len(pids) >= 2 and {os.path.realpath(f"/proc/{pid}/exe") for pid in pids} == {os.path.realpath(node_binary())}
