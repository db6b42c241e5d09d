"""mc-smelt on the real server's furnaces (bridge/lib/furnaces.js), on the three versions the
README names: a furnace set down from the inventory, raw iron (iron ore before 1.17) smelted
into an ingot with coal, then with planks at the same furnace; sand the bot lacks refused with
it named. Counts are read in the inventory before and after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.mc.names import Item
from agent.server.scenario import Scenario, Spawn
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body


def _forge(version: str) -> Scenario:
    ore = "iron_ore" if version == "1.16.5" else "raw_iron"  # raw iron came in 1.17
    return Scenario(name="forge", description="a flat field; the bot carries a furnace, iron, coal and planks",
                    spawn=Spawn(x=0.5, y=5, z=0.5, facing="south"),
                    inventory=[Item(name="furnace"), Item(name=ore, count=2), Item(name="coal"), Item(name="oak_planks", count=2)])


@pytest.fixture(scope="module", params=["1.16.5", "1.20.4", "1.21.4"])
def forge(request, toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(_forge(request.param), "smith", toolbox, version=request.param):
        assert wait_for(lambda: body.bot.state().on_ground and body.carried("coal") == 1)
        yield body



def test_iron_smelts_into_an_ingot_in_a_furnace_set_down(forge: Body) -> None:
    report = forge.ok("mc-smelt", item="iron_ingot")
    assert report["made"] == 1 and report["placed_furnace"] is True and report["fuel"] == "coal"
    furnace = report["furnace"]
    assert forge.bot.block_at(furnace["x"], furnace["y"], furnace["z"]) == "furnace"
    assert forge.carried("iron_ingot") == 1 and forge.carried("coal") == 0


def test_planks_burn_at_the_same_furnace(forge: Body) -> None:
    report = forge.ok("mc-smelt", item="iron_ingot", fuel="oak_planks")
    assert report["made"] == 1 and report["placed_furnace"] is False and report["fuel_used"] == 1
    assert forge.carried("iron_ingot") == 2 and forge.carried("oak_planks") == 1


def test_what_the_inventory_lacks_is_refused_with_it_named(forge: Body) -> None:
    refused = forge.call("mc-smelt", item="glass")
    assert refused.code == "refused" and "sand" in refused.reason
    assert refused.data["missing"][0]["name"] == "sand"
    bad = forge.call("mc-smelt", item="diamond")
    assert bad.code == "bad_args" and "diamond" in bad.reason


def test_no_tick_of_a_fuel_is_lost_two_planks_smelt_three(toolbox: Toolbox) -> None:
    # 300 ticks a plank, 200 an item: a new plank is lit the tick the last burns out, as in the game.
    kiln = Scenario(name="kiln", description="a flat field; a furnace, three raw iron and two planks",
                    spawn=Spawn(x=0.5, y=5, z=0.5, facing="south"),
                    inventory=[Item(name="furnace"), Item(name="raw_iron", count=3), Item(name="oak_planks", count=2)])
    for body in scenario_body(kiln, "kilner", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground and body.carried("oak_planks") == 2)
        report = body.ok("mc-smelt", item="iron_ingot", count=3)
        assert (report["made"], report["fuel"], report["fuel_used"]) == (3, "oak_planks", 2)
        assert body.carried("iron_ingot") == 3 and body.carried("oak_planks") == 0
