"""The craft tool (skills/craft) on the real server: a wooden pickaxe from an empty inventory
beside a tree (logs collected, planks, sticks and a crafting table made, the table set down and
read back in the world), an iron pickaxe from nothing in the resource patch (stone with the
wooden pickaxe, iron ore with the stone one, smelted in a furnace made of cobblestone), and an
item no block or recipe gives refused with the reason. The inventory, read after, decides."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.paths import SKILLS_DIR
from agent.server import Scenario
from agent.tools import Toolbox, load_toolbox, standard_sources
from support.waiting import wait_for
from support.world_body import Body, scenario_body


@pytest.fixture(scope="module")
def skills() -> Toolbox:
    return load_toolbox(standard_sources("minecraft", [SKILLS_DIR]))


def _body(scenario: str | Scenario, skills: Toolbox) -> Iterator[Body]:
    for body in scenario_body(scenario, "crafter", skills):
        assert wait_for(lambda: body.bot.state().on_ground)
        yield body



def test_a_wooden_pickaxe_from_nothing_beside_a_tree(skills: Toolbox) -> None:
    for body in _body("workbench", skills):
        report = body.ok("craft", item="wooden_pickaxe")
        assert body.carried("wooden_pickaxe") == 1 and report["held"] == 1
        done = [(s["action"], s["item"]) for s in report["steps"]]
        assert done[0] == ("collect", "oak_log") and ("craft", "crafting_table") in done and done[-1] == ("craft", "wooden_pickaxe")
        assert all(s["ok"] for s in report["steps"]), [s.get("failed") for s in report["steps"]]
        tables = body.ok("mc-find", blocks=["crafting_table"], radius=8)["found"]
        assert tables and tables[0]["name"] == "crafting_table"  # set down, and still standing


def test_an_iron_pickaxe_from_nothing_in_the_resource_patch(skills: Toolbox) -> None:
    for body in _body("resource-patch", skills):
        report = body.ok("craft", item="iron_pickaxe")
        assert body.carried("iron_pickaxe") == 1
        done = [(s["action"], s["item"]) for s in report["steps"]]
        for milestone in [("craft", "wooden_pickaxe"), ("collect", "cobblestone"), ("craft", "stone_pickaxe"),
                          ("collect", "raw_iron"), ("smelt", "iron_ingot"), ("craft", "iron_pickaxe")]:
            assert milestone in done, (milestone, done)
        assert done.index(("craft", "stone_pickaxe")) < done.index(("collect", "raw_iron")) < done.index(("smelt", "iron_ingot"))


def test_a_table_no_walk_reaches_is_replaced_by_one_made_and_set_down(skills: Toolbox) -> None:
    walled = Scenario.model_validate({
        "name": "walled-table", "description": "a crafting table walled in stone 4 east; planks and sticks carried",
        "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "east"},
        "boxes": [{"block": "stone", "from": [3, 4, -1], "to": [5, 7, 1]}], "blocks": [{"block": "crafting_table", "at": [4, 5, 0]}],
        "inventory": [{"name": "oak_planks", "count": 7}, {"name": "stick", "count": 2}]})
    for body in _body(walled, skills):
        # the walled table in the bot's world before the craft scans for it (late under load: the
        # scan missed it in a clean-clone run, and a new table was made at once)
        assert wait_for(lambda: body.bot.block_at(4, 5, 0) == "crafting_table")
        report = body.ok("craft", item="wooden_pickaxe")
        done = [(s["action"], s["item"], s["ok"]) for s in report["steps"]]
        assert done[0] == ("craft", "wooden_pickaxe", False)  # at the walled table: no walk reaches it
        assert done[1:] == [("craft", "crafting_table", True), ("craft", "wooden_pickaxe", True)]
        assert body.bot.block_at(4, 5, 0) == "crafting_table"  # the walled one is left where it was


def test_what_nothing_gives_is_refused_with_the_reason(skills: Toolbox) -> None:
    for body in _body("flat", skills):
        refused = body.call("craft", item="bedrock")
        assert refused.code == "refused" and refused.reason.startswith("bedrock:"), refused.reason
        bad = body.call("craft", item="wooden_pickaxes")
        assert bad.code == "bad_args" and "wooden_pickaxes" in bad.reason
