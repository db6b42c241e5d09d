"""mc-craft on the real server, on the three versions the README names: oak_log into 4
oak_planks in the 2x2 grid, a recipe lacking an ingredient refused with it named, a crafting
table made and set down for a wooden pickaxe (the table read back in the world), cobblestone
into a stone pickaxe at that table, a table set down a step up where the feet are walled in;
every count read in the inventory before and after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.mc.names import Item
from agent.server.scenario import Scenario, Spawn
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import Body, scenario_body

BENCH = Scenario(name="bench", description="a flat field; the bot carries oak logs and cobblestone",
                 spawn=Spawn(x=0.5, y=5, z=0.5, facing="south"),
                 inventory=[Item(name="oak_log", count=4), Item(name="cobblestone", count=3)])


@pytest.fixture(scope="module", params=["1.16.5", "1.20.4", "1.21.4"])
def bench(request, toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body(BENCH, "crafter", toolbox, version=request.param):
        assert wait_for(lambda: body.bot.state().on_ground and body.carried("oak_log") == 4)
        yield body



def _changes(report: dict) -> dict[str, int]:
    return {c["name"]: c["count"] for c in report["changes"]}


def test_a_log_makes_four_planks_in_the_2x2_grid(bench: Body) -> None:
    report = bench.ok("mc-craft", item="oak_planks", count=4)
    assert report["made"] == 4 and report["table"] is None
    assert _changes(report) == {"oak_log": -1, "oak_planks": 4}
    assert bench.carried("oak_planks") == 4


def test_a_recipe_lacking_an_ingredient_is_refused_with_it_named(bench: Body) -> None:
    refused = bench.call("mc-craft", item="stone_pickaxe")
    assert refused.code == "refused" and "stick" in refused.reason, refused.reason
    missing = {m["name"]: m["count"] for m in refused.data["missing"]}
    assert missing == {"stick": 2, "crafting_table": 1}
    assert refused.data["made"] == 0 and refused.data["changes"] == []
    unknown = bench.call("mc-craft", item="oak_plank")
    assert unknown.code == "bad_args" and "oak_plank" in unknown.reason


def test_a_table_made_and_set_down_makes_a_wooden_pickaxe(bench: Body) -> None:
    bench.ok("mc-craft", item="oak_planks", count=12)
    assert bench.ok("mc-craft", item="crafting_table")["made"] == 1
    assert bench.ok("mc-craft", item="stick", count=4)["made"] == 4
    report = bench.ok("mc-craft", item="wooden_pickaxe")
    assert report["made"] == 1 and report["placed_table"] is True
    table = report["table"]
    assert bench.bot.block_at(table["x"], table["y"], table["z"]) == "crafting_table"
    assert _changes(report) == {"oak_planks": -3, "stick": -2, "crafting_table": -1, "wooden_pickaxe": 1}


def test_cobblestone_makes_a_stone_pickaxe_at_that_table(bench: Body) -> None:
    report = bench.ok("mc-craft", item="stone_pickaxe")
    assert report["made"] == 1 and report["placed_table"] is False and report["table"] is not None
    assert _changes(report) == {"cobblestone": -3, "stick": -2, "stone_pickaxe": 1}
    assert bench.carried("stone_pickaxe") == 1 and bench.carried("cobblestone") == 0


def test_walled_in_at_the_feet_the_table_is_set_down_a_step_up(toolbox: Toolbox) -> None:
    # A stair's top or a trench: every cell beside the feet is dirt, so the table goes on one.
    trench = Scenario.model_validate({
        "name": "trench", "description": "the bot in a one-block hole: dirt all round at the feet's level",
        "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
        "boxes": [{"block": "dirt", "from": [-2, 5, -2], "to": [2, 5, 2]}], "blocks": [{"block": "air", "at": [0, 5, 0]}],
        "inventory": [{"name": "oak_planks", "count": 3}, {"name": "stick", "count": 2}, {"name": "crafting_table"}]})
    for body in scenario_body(trench, "trencher", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground and body.carried("crafting_table") == 1)
        report = body.ok("mc-craft", item="wooden_pickaxe")
        assert report["made"] == 1 and report["placed_table"] is True and report["table"]["y"] == 6
