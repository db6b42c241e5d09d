"""mc-chest on the real server, with the chests of bridge/lib/containers.js: a chest's contents
listed, logs put in and bread taken out, each read back from the server (the chest opened again,
and a second player who opens it sees the same); container_has judged by the server's own
record; fewer there than asked stops incomplete, an item not there not_found; a chest dug spills
what it held."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.bridge import connect
from agent.checks import evaluate, parse_check
from agent.mc.names import Item
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.server.local_server import ServerError
from agent.server.scenario import Chest, Scenario, Spawn
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body

CHEST = (0, 5, 3)
PANTRY = Scenario(
    name="pantry", description="a chest 3 blocks ahead holding bread and sticks; the bot carries oak logs",
    spawn=Spawn(x=0.5, y=5, z=0.5, facing="south"),
    chests=[Chest(at=CHEST, items=[Item(name="bread", count=3), Item(name="stick", count=2)])],
    inventory=[Item(name="oak_log", count=5)])


@pytest.fixture(scope="module")
def pantry(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(PANTRY, "keeper", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        yield body


def _held(items: list[dict], name: str) -> int:
    return sum(i["count"] for i in items if i["name"] == name)


def _holds(body: Body, check: dict) -> bool:
    return evaluate(body.bot, parse_check(check, "c")).holds


def test_a_chest_lists_what_the_scenario_put_in_it(pantry: Body) -> None:
    report = pantry.ok("mc-chest")
    assert report["chest"] == dict(zip("xyz", CHEST)) and report["moved"] == 0
    assert sorted((i["name"], i["count"]) for i in report["chest_items"]) == [("bread", 3), ("stick", 2)]
    assert _holds(pantry, {"container_has": {"at": list(CHEST), "name": "bread", "count": 3}})
    assert not _holds(pantry, {"container_has": {"at": list(CHEST), "name": "oak_log"}})


def test_logs_put_in_are_in_the_chest_as_the_server_keeps_it(pantry: Body) -> None:
    report = pantry.ok("mc-chest", action="deposit", item="oak_log", count=4)
    assert report["moved"] == 4 and _held(report["chest_items"], "oak_log") == 4
    assert _held(report["inventory"], "oak_log") == 1
    assert _holds(pantry, {"container_has": {"at": list(CHEST), "name": "oak_log", "count": 4}})
    assert _holds(pantry, {"container_has": {"name": "oak_log", "count": 4}})  # any chest near: this one
    with connect(port=pantry.bot.port, username="auditor") as auditor:  # another player opens it
        assert wait_for(lambda: auditor.state().on_ground)
        seen = auditor.call("chest", {"action": "list", "radius": 16, "timeout_s": 30}, timeout_s=30)
    assert _held(seen["chest_items"], "oak_log") == 4 and _held(seen["chest_items"], "bread") == 3


def test_bread_taken_out_is_carried_and_gone_from_the_chest(pantry: Body) -> None:
    report = pantry.ok("mc-chest", action="withdraw", item="bread", count=2)
    assert report["moved"] == 2 and _held(report["chest_items"], "bread") == 1
    assert _holds(pantry, {"has_item": {"name": "bread", "count": 2}})
    assert not _holds(pantry, {"container_has": {"at": list(CHEST), "name": "bread", "count": 2}})


def test_fewer_than_asked_stops_short_and_an_item_not_there_not_found(pantry: Body) -> None:
    short = pantry.call("mc-chest", action="withdraw", item="stick", count=5)
    assert short.code == "incomplete" and "only 2 stick in the chest, 5 asked" in short.reason, short.reason
    assert _holds(pantry, {"has_item": {"name": "stick", "count": 2}})
    missing = pantry.call("mc-chest", action="deposit", item="diamond")
    assert missing.code == "not_found" and "no diamond in the inventory" in missing.reason
    bad = pantry.call("mc-chest", action="deposit")
    assert bad.code == "bad_args" and "deposit needs the item's name" in bad.reason


def test_a_chest_dug_spills_what_it_held(pantry: Body) -> None:
    before = _held(pantry.ok("mc-chest")["chest_items"], "oak_log")
    assert before == 4
    pantry.ok("mc-collect", block="chest", count=1)
    assert pantry.bot.block_at(*CHEST) != "chest"
    assert wait_for(lambda: _count_logs(pantry) == 5, timeout_s=10)  # the 4 spilled logs picked up with the chest


def _count_logs(body: Body) -> int:
    return _held(body.ok("mc-inventory")["items"], "oak_log")


@pytest.mark.parametrize("version", ["1.16.5", "1.21.4"])
def test_a_chest_keeps_what_is_put_in_on_other_versions(toolbox: Toolbox, version: str) -> None:
    for body in scenario_body(PANTRY, "keeper", toolbox, version=version):
        assert wait_for(lambda: body.bot.state().on_ground)
        report = body.ok("mc-chest", action="deposit", item="oak_log", count=3)
        assert report["moved"] == 3 and _held(report["chest_items"], "oak_log") == 3
        assert _holds(body, {"container_has": {"at": list(CHEST), "name": "oak_log", "count": 3}})


def test_a_chest_given_more_than_27_stacks_stops_the_start_with_one_line() -> None:
    crammed = PANTRY.model_copy(update={"chests": [Chest(at=CHEST, items=[Item(name="bread", count=64 * 27 + 1)])]})
    with pytest.raises(ServerError, match=r"scenario pantry: a chest at 0,5,3 holds 27 stacks; more were given"):
        with LocalServer(ServerSettings(), scenario=crammed):
            pass


def test_a_chest_downhill_on_generated_terrain_is_walked_to(toolbox: Toolbox) -> None:
    # The path search ends beside the chest; its points are then moved onto the blocks' tops,
    # so which chest it reached is read during the search, not from the path (seed 0's slope).
    for body in scenario_body(load_scenario("hill-chest").transformed(0), "downhill", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        taken = body.ok("mc-chest", action="withdraw", item="apple", count=3)
        assert taken["moved"] == 3
