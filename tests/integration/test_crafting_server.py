"""Crafting and furnaces on the embedded server (bridge/lib/crafting.js, furnaces.js), driven by
Mineflayer's own bot.craft, clickWindow and bot.openFurnace, unchanged (a Node script of the
tests' own, tests/fixtures/bridge/crafting_by_hand.js), on the three versions the README names:
planks in the 2x2 grid, a crafting table made, set down and used for a wooden pickaxe, a plank
left in the table's grid given back when its window closes, a shift-click on the 2x2 grid's
result crafting into the inventory, raw iron smelted into an ingot."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agent.mc.names import Item
from agent.node import node_binary, node_environment
from agent.server import LocalServer, ServerSettings
from agent.server.scenario import Scenario, Spawn
SCRIPT = Path(__file__).resolve().parent.parent / "fixtures" / "bridge" / "crafting_by_hand.js"
VERSIONS = ["1.16.5", "1.20.4", "1.21.4"]


def _scenario(version: str) -> Scenario:
    ore = "iron_ore" if version == "1.16.5" else "raw_iron"  # raw iron came in 1.17
    return Scenario(name="by-hand", description="a flat field; the player carries logs, a furnace, coal and iron",
                    spawn=Spawn(x=0.5, y=5, z=0.5, facing="east"),
                    inventory=[Item(name="oak_log", count=3), Item(name="furnace"), Item(name="coal"), Item(name=ore)])


@pytest.fixture(scope="module", params=VERSIONS)
def by_hand(request) -> dict:
    with LocalServer(ServerSettings(), scenario=_scenario(request.param), version=request.param) as info:
        done = subprocess.run([node_binary(), str(SCRIPT), str(info.port), request.param], capture_output=True, text=True,
                              timeout=120, stdin=subprocess.DEVNULL, env=node_environment())
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in report, report
    return report


def test_logs_make_planks_and_planks_a_table_and_sticks_in_the_2x2_grid(by_hand: dict) -> None:
    assert by_hand["grid"] == {"oak_planks": 6, "crafting_table": 1, "stick": 4, "furnace": 1, "coal": 1,
                               **{k: 1 for k in by_hand["grid"] if k in ("iron_ore", "raw_iron")}}
    assert "oak_log" not in by_hand["grid"]


def test_a_right_click_into_an_empty_slot_never_tells_the_client_it_holds_none(by_hand: dict) -> None:
    assert by_hand["empty_stacks_sent"] == 0


def test_a_table_set_down_makes_a_wooden_pickaxe(by_hand: dict) -> None:
    after = by_hand["table"]
    assert after["wooden_pickaxe"] == 1 and after["oak_planks"] == 3 and after["stick"] == 2
    assert "crafting_table" not in after  # it stands in the world now


def test_a_plank_left_in_the_grid_comes_back_when_the_window_closes(by_hand: dict) -> None:
    assert by_hand["grid_slot"] == "oak_planks"  # the server holds it in the grid
    assert by_hand["closed"]["oak_planks"] == 3  # and gives it back on closing: nothing lost


def test_a_shift_click_on_the_result_crafts_into_the_inventory(by_hand: dict) -> None:
    after = by_hand["shift_clicked"]
    assert after["stick"] == 2 + 4 and after["oak_planks"] == 1


def test_a_plank_left_in_the_2x2_grid_comes_back_when_the_inventory_closes(by_hand: dict) -> None:
    assert by_hand["in_grid"] == "oak_planks"
    assert by_hand["inventory_closed"]["oak_planks"] == 1 and by_hand["inventory_closed"]["grid"] == 0


def test_raw_iron_smelts_into_an_ingot(by_hand: dict) -> None:
    after = by_hand["furnace"]
    assert after.get("iron_ingot") == 1
    assert not {"coal", "raw_iron", "iron_ore", "furnace"} & set(after)
