"""mc-give on the real server: the giver walks up to a second player standing away, throws iron
ingots their way, and the second player's own inventory rises by as many as the result says they
received (and the giver's falls by as many); an item not carried and a player not in view fail
not_found, nothing thrown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.bridge import BotConnection, connect
from agent.mc.names import Item
from agent.server.scenario import Scenario, Spawn
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body

# Every player who joins carries the scenario's inventory.
FIELD = Scenario(name="give", description="a flat field; each player carries 3 iron ingots",
                 spawn=Spawn(x=0.5, y=5, z=0.5, facing="south"), inventory=[Item(name="iron_ingot", count=3)])


def _iron(bot: BotConnection) -> int:
    return sum(i["count"] for i in bot.call("inventory", {})["items"] if i["name"] == "iron_ingot")


@pytest.fixture(scope="module")
def giver(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(FIELD, "giver", toolbox):
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
    assert giver.carried("iron_ingot") == 1  # nothing thrown
