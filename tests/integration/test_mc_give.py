"""mc-give on the real server: the giver walks up to a second player standing away, throws iron
ingots their way, and the second player's own inventory rises by as many as the result says they
received (and the giver's falls by as many); an item not carried and a player not in view fail
not_found, nothing thrown; a throw a player has no room for is picked back up, thrown again and
kept at last; and an asker's mc-wait ends once what it asked for is in its inventory,
once a player speaks to it, or once it is stopped."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from agent.bridge import BotConnection, connect
from agent.mc.names import MAX_ITEM_COUNT, Item
from agent.server import LocalServer, ServerInfo, ServerSettings
from agent.server.scenario import Scenario, Spawn
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, body_on

# Every player who joins carries the scenario's inventory; "full" has no room left.
FIELD = Scenario(name="give", description="a flat field; each player carries 3 iron ingots",
                 spawn=Spawn(x=0.5, y=5, z=0.5, facing="south"), inventory=[Item(name="iron_ingot", count=3)],
                 inventories={"full": [Item(name="dirt", count=MAX_ITEM_COUNT)]})
GIVERS = itertools.count(1)  # one player name per test's giver


def _iron(bot: BotConnection) -> int:
    return sum(i["count"] for i in bot.call("inventory", {})["items"] if i["name"] == "iron_ingot")


@pytest.fixture(scope="module")
def field() -> Iterator[ServerInfo]:
    with LocalServer(ServerSettings(), scenario=FIELD) as info:
        yield info


@pytest.fixture
def giver(field: ServerInfo, toolbox: Toolbox) -> Iterator[Body]:
    """Each test's own giver, joining with its 3 ingots: what one test throws is not the next one's to lose."""
    for body in body_on(field.port, FIELD, f"giver{next(GIVERS)}", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground and body.carried("iron_ingot") == 3)
        yield body


def test_the_player_receives_what_was_thrown_their_way(giver: Body) -> None:
    with connect(port=giver.bot.port, username="taker") as taker:
        assert wait_for(lambda: taker.state().on_ground and _iron(taker) == 3)
        walked = taker.call("goto", {"x": 0.5, "y": 5, "z": 7.5, "range": 0, "timeout_s": 30, "allow_dig": False,
                                     "allow_build": False, "max_drop": 3}, timeout_s=35)
        assert walked["reached"], walked
        report = giver.ok("mc-give", player="taker", item="iron_ingot", count=2)
        assert report["thrown"] == 2 and report["received"] == 2 and report["stop_reason"] == "completed"
        assert wait_for(lambda: _iron(taker) == 3 + 2)  # the taker's own inventory, read by the taker
        assert giver.carried("iron_ingot") == 1
        assert giver.bot.state().position.z > 3  # it walked up to the taker: a throw does not carry 7 blocks


def test_an_item_not_carried_or_a_player_not_in_view_fails_not_found(giver: Body) -> None:
    no_item = giver.call("mc-give", player="giver", item="diamond")
    assert no_item.code == "not_found" and "no diamond carried" in no_item.reason
    nobody = giver.call("mc-give", player="nobody", item="iron_ingot")
    assert nobody.code == "not_found" and "player 'nobody' is not in view" in nobody.reason
    assert giver.carried("iron_ingot") == 3  # nothing thrown


def test_a_throw_the_player_has_no_room_for_is_picked_back_up_thrown_again_and_kept(giver: Body) -> None:
    with connect(port=giver.bot.port, username="full") as full:
        assert wait_for(lambda: full.state().on_ground and sum(i["count"] for i in full.call("inventory", {})["items"]) == MAX_ITEM_COUNT)
        report = giver.call("mc-give", player="full", item="iron_ingot", count=1, timeout_s=60)
        assert report.code == "incomplete" and "full picked up 0 of the 1 thrown" in report.reason, report
        assert (report.data["thrown"], report.data["received"]) == (0, 0), report.data  # back with the giver
        assert giver.carried("iron_ingot") == 3 and _iron(full) == 0
        assert not giver.call("mc-find", items=True, radius=16).data["found"]  # nothing left lying


def test_a_wait_ends_once_the_item_asked_for_is_carried_or_a_player_speaks(giver: Body) -> None:
    with connect(port=giver.bot.port, username="asker") as asker, ThreadPoolExecutor(max_workers=1) as pool:
        assert wait_for(lambda: asker.state().on_ground and _iron(asker) == 3)
        waiting = pool.submit(asker.call, "wait", {"seconds": 30, "until_carried": {"name": "iron_ingot", "count": 4}},
                              timeout_s=40)
        giver.ok("mc-give", player="asker", item="iron_ingot", count=1)
        waited = waiting.result()
        assert waited["ended_by"] == "carried" and waited["waited_s"] < 25 and _iron(asker) == 4, waited
        asker.call("inbox", {})  # nothing unread before the next wait
        waiting = pool.submit(asker.call, "wait", {"seconds": 30, "until_told": True}, timeout_s=40)
        giver.ok("mc-tell", player="asker", text="please give me 1 iron_ingot")
        told = waiting.result()
        assert told["ended_by"] == "told" and told["waited_s"] < 25, told
        alone = asker.call("wait", {"seconds": 0.5, "until_told": True})  # the line is still unread: at once
        assert alone["ended_by"] == "told" and alone["waited_s"] < 0.5
        assert [m["text"] for m in asker.call("inbox", {})["messages"]] == ["please give me 1 iron_ingot"]
        assert asker.call("wait", {"seconds": 0.5, "until_told": True})["ended_by"] == "time"
        waiting = pool.submit(asker.call, "wait", {"seconds": 30}, timeout_s=40)
        assert wait_for(lambda: waiting.running())
        time.sleep(0.5)
        asker.halt()  # a stop (Ctrl-C, a teammate who reached the goal) ends a wait at once
        assert waiting.result()["ended_by"] == "stopped" and waiting.result()["waited_s"] < 25
