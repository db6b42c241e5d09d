"""Arguments the goal check states (agent/planner/given.py): the outer loop writes them for the
tool that gets what the check asks, instead of asking the model, and the trace says the check
decided them."""

from __future__ import annotations

import pytest

from agent.checks import parse_check
from agent.paths import SKILLS_DIR
from agent.planner.focus import achievers
from agent.planner.given import given_args, supporting_args
from agent.tools import load_toolbox, standard_sources


@pytest.fixture(scope="module")
def toolbox():
    return load_toolbox(standard_sources("minecraft", []))


def test_each_part_of_the_check_gives_its_tool_the_words_it_takes(toolbox) -> None:
    check = parse_check({"all": [{"has_item": {"name": "oak_log", "count": 3}}, {"near_block": {"block": "chest"}},
                                 {"blueprint": {"anchor": [0, 5, 2], "blocks": [{"at": [0, 1, 0], "block": "dirt"}]}}]}, "c")
    assert given_args(check, toolbox) == {
        "mc-collect": {"block": "oak_log", "count": 3},
        "mc-chest": {"action": "withdraw", "item": "oak_log", "count": 3},
        "mc-approach": {"block": "chest"},
        "mc-build": {"anchor": [0, 5, 2], "blocks": [{"at": [0, 1, 0], "block": "dirt"}]},
    }


def test_only_an_item_a_recipe_makes_is_given_to_mc_craft(toolbox) -> None:
    # oak_log is dug, never crafted: mc-craft given it failed as bad_args in the words suite's traces
    assert "mc-craft" not in given_args(parse_check({"has_item": {"name": "oak_log"}}, "c"), toolbox)
    made = given_args(parse_check({"has_item": {"name": "stick", "count": 4}}, "c"), toolbox)
    assert made["mc-craft"] == {"item": "stick", "count": 4} and "mc-smelt" not in made
    # what a furnace makes is smelted all at once: one coal smelts eight, a call for each burnt one each
    smelted = given_args(parse_check({"has_item": {"name": "iron_ingot", "count": 3}}, "c"), toolbox)
    assert smelted["mc-smelt"] == {"item": "iron_ingot", "count": 3}
    # and only what a block no one made drops to mc-collect: bread is taken from a chest or made,
    # planks are made (a natural world has none to dig), and no dig gives stone
    for item in ("bread", "spruce_planks", "crafting_table", "stone"):
        assert "mc-collect" not in given_args(parse_check({"has_item": {"name": item}}, "c"), toolbox), item
    assert given_args(parse_check({"has_item": {"name": "cobblestone"}}, "c"), toolbox)["mc-collect"]["block"] == "cobblestone"
    # a count past one collecting's is collected in turns; craft takes a whole inventory's (a house's 65 planks)
    assert given_args(parse_check({"has_item": {"name": "oak_log", "count": 40}}, "c"), toolbox)["mc-collect"]["count"] == 16
    skills = load_toolbox(standard_sources("minecraft", [SKILLS_DIR]))
    assert given_args(parse_check({"has_item": {"name": "oak_planks", "count": 65}}, "c"), skills)["craft"]["count"] == 65


def test_a_chest_to_fill_gives_mc_chest_what_to_put_in_and_no_place(toolbox) -> None:
    check = parse_check({"container_has": {"at": [3, 5, 2], "name": "oak_log", "count": 5}}, "c")
    assert given_args(check, toolbox) == {"mc-chest": {"action": "deposit", "item": "oak_log", "count": 5}}


def test_a_block_to_stand_on_gives_mc_approach_its_name_and_on_top(toolbox) -> None:
    on = parse_check({"standing_on": {"block": "stone"}}, "c")
    assert given_args(on, toolbox) == {"mc-approach": {"block": "stone", "on_top": True}}
    beside = parse_check({"near_block": {"block": "stone"}}, "c")  # beside it: no on_top, as before
    assert given_args(beside, toolbox) == {"mc-approach": {"block": "stone"}}
    # and mc-approach is among the tools offered first for it (its Skill.md achieves standing_on)
    assert "mc-approach" in achievers(on, toolbox)


@pytest.mark.parametrize("check", [None, {"sky_visible": True}, {"any": [{"has_item": {"name": "dirt"}}]},
                                   {"not": {"near_block": {"block": "lava"}}}])
def test_a_check_that_does_not_state_what_to_get_gives_nothing(toolbox, check) -> None:
    assert given_args(parse_check(check, "c") if check else None, toolbox) == {}


def test_a_tool_the_toolbox_lacks_is_given_nothing() -> None:
    empty = load_toolbox([])
    assert given_args(parse_check({"has_item": {"name": "dirt"}}, "c"), empty) == {}


def test_a_found_item_is_not_achieved_by_the_tools_that_only_make_things() -> None:
    # "Collect three logs" on plains with no tree near: SmolLM2 was offered craft as an achiever
    # of has_item oak_log and made it craft a glass pane.
    skills = load_toolbox(standard_sources("minecraft", [SKILLS_DIR]))
    logs = achievers(parse_check({"has_item": {"name": "oak_log", "count": 3}}, "c"), skills)
    assert {"mc-collect", "gather"} <= set(logs) and not {"craft", "mc-craft", "mc-smelt"} & set(logs)
    pickaxe = achievers(parse_check({"has_item": {"name": "stone_pickaxe"}}, "c"), skills)
    assert {"craft", "mc-craft"} <= set(pickaxe)
    # and what no dig gives is not collected: a house short of planks had SmolLM2 collect "oak_planks"
    planks = achievers(parse_check({"has_item": {"name": "oak_planks", "count": 65}}, "c"), skills)
    assert {"craft", "mc-craft"} <= set(planks) and "mc-collect" not in planks
    assert "mc-collect" in achievers(parse_check({"has_item": {"name": "cobblestone"}}, "c"), skills)


def test_a_blueprint_short_of_blocks_is_given_mc_collect_only_for_what_digging_gives(toolbox) -> None:
    def blueprint(*blocks: str):
        cells = [{"at": [i, 0, 0], "block": b} for i, b in enumerate(blocks)]
        return parse_check({"blueprint": {"anchor": [0, 5, 0], "blocks": cells}}, "c")

    built = supporting_args(blueprint("oak_planks", "air", "oak_planks", "cobblestone", "oak_door[half=lower]"), toolbox)
    assert built["mc-collect"] == {"block": "cobblestone", "count": 1}  # its cells kept by mc-collect itself
    assert "mc-collect" not in supporting_args(blueprint("oak_planks", "glass_pane", "stone_bricks"), toolbox)
    assert "mc-collect" not in supporting_args(blueprint("oak_planks", "air", "air"), toolbox)  # air is cleared, not got
