"""The recipe-tree planner (agent/world/crafting_plan.py) on minecraft-data's recipes: what it
asks mc-collect, mc-craft and mc-smelt to do, in an order that can be done."""

from __future__ import annotations

from agent.world import crafting_plan
from agent.world.crafting_plan import plan, used_up


def _steps(p) -> list[str]:
    return [f"{s.action} {s.count} {s.item}" for s in p.steps]


def test_a_wooden_pickaxe_from_nothing_next_to_a_tree() -> None:
    p = plan("wooden_pickaxe", 1, {}, {"oak_log"})
    assert _steps(p) == ["collect 3 oak_log", "craft 8 oak_planks", "craft 4 stick", "craft 4 oak_planks",
                         "craft 1 crafting_table", "craft 1 wooden_pickaxe"]
    assert p.unobtainable == []


def test_what_the_inventory_holds_is_used_and_a_table_near_is_not_made() -> None:
    assert _steps(plan("wooden_pickaxe", 1, {"oak_planks": 3, "stick": 2}, {"crafting_table"})) == ["craft 1 wooden_pickaxe"]
    assert _steps(plan("stick", 4, {"stick": 4}, set())) == []


def test_stone_needs_a_wooden_pickaxe_first_and_keeps_it() -> None:
    steps = _steps(plan("stone_pickaxe", 1, {}, {"oak_log", "stone"}))
    assert steps.index("craft 1 wooden_pickaxe") < steps.index("collect 3 cobblestone") < steps.index("craft 1 stone_pickaxe")
    assert steps.count("craft 1 crafting_table") == 1  # set down once, used again


def test_the_iron_tier_smelts_raw_iron_in_a_furnace_made_of_cobblestone() -> None:
    steps = _steps(plan("iron_pickaxe", 1, {}, {"oak_log", "stone", "iron_ore", "coal_ore"}))
    assert "collect 11 cobblestone" in steps  # 3 for the pickaxe, 8 for the furnace: one walk
    assert steps.index("craft 1 stone_pickaxe") < steps.index("collect 3 raw_iron")  # iron ore needs stone
    assert steps.index("craft 1 furnace") < steps.index("smelt 3 iron_ingot") < steps.index("craft 1 iron_pickaxe")
    assert "collect 1 coal" in steps


def test_without_coal_planks_carried_are_burnt() -> None:
    steps = _steps(plan("iron_ingot", 2, {"raw_iron": 2, "oak_planks": 4, "furnace": 1}, set()))
    assert steps == ["smelt 2 iron_ingot"]


def test_before_1_17_iron_ore_itself_is_dug_and_smelted() -> None:
    steps = _steps(plan("iron_ingot", 1, {"coal": 1, "furnace": 1, "stone_pickaxe": 1}, {"iron_ore"}, "1.16.5"))
    assert steps == ["collect 1 iron_ore", "smelt 1 iron_ingot"]


def test_what_no_block_near_or_far_gives_is_unobtainable_with_the_reason() -> None:
    p = plan("bedrock", 1, {}, {"oak_log"})
    assert p.steps == [] and p.unobtainable and p.unobtainable[0].startswith("bedrock:")


def test_blocks_not_seen_are_dug_only_when_nothing_near_works_and_never_crafted_ones() -> None:
    steps = _steps(plan("stone_pickaxe", 1, {}, set()))  # nothing seen: logs and stone are still what the world is made of
    assert steps[0] == "collect 3 oak_log" and "collect 3 cobblestone" in steps
    assert not any(s.startswith("collect") and s.endswith(("planks", "crafting_table")) for s in steps)


def test_where_a_block_must_be_looked_for_the_parts_the_near_blocks_give_still_come_from_them() -> None:
    # A taiga: spruce by the bot, no stone seen (it lies under the grass). The wood is spruce, not
    # an oak that may not grow here; only the cobblestone is looked for.
    steps = _steps(plan("stone_pickaxe", 1, {}, {"spruce_log"}))
    assert steps[0] == "collect 3 spruce_log" and not any("oak" in s for s in steps)
    assert "collect 3 cobblestone" in steps


def test_fuel_comes_from_the_wood_near_before_coal_not_seen() -> None:
    steps = _steps(plan("iron_ingot", 1, {"raw_iron": 1, "furnace": 1}, {"birch_log"}))
    assert steps == ["collect 1 birch_log", "craft 4 birch_planks", "smelt 1 iron_ingot"]
    assert "collect 1 coal" in _steps(plan("iron_ingot", 1, {"raw_iron": 1, "furnace": 1}, {"birch_log", "coal_ore"}))


def test_what_a_recipe_makes_is_made_before_it_is_picked_from_blocks_near() -> None:
    # the desert: dead bushes drop sticks (none as often as some); planks make them every time
    steps = _steps(plan("stone_pickaxe", 1, {"oak_log": 1, "oak_planks": 4}, {"oak_log", "dead_bush", "stone"}))
    assert "craft 4 stick" in steps and not [s for s in steps if s.endswith(" stick") and s.startswith("collect")]
    assert _steps(plan("stick", 2, {}, {"dead_bush"})) == ["collect 2 stick"]  # no wood near: the bushes it is


def test_what_a_plan_uses_up_is_counted_down_the_whole_tree_when_it_digs_nothing() -> None:
    # deepslate tiles from 4 deepslate bricks, each 4 from 4 polished deepslate: two crafts down
    held = {"polished_deepslate": 5, "crafting_table": 1}
    assert used_up("deepslate_tiles", 1, held, set()) == {"polished_deepslate": 4}
    assert used_up("deepslate_tiles", 1, {"polished_deepslate": 3}, set()) is None  # one short: it must dig
    assert used_up("stick", 4, {"oak_log": 1}, set()) == {"oak_log": 1}  # planks, then sticks
    assert used_up("shears", 1, {}, {"iron_ore"}) is None  # a plan that digs


def test_wools_and_dyes_that_make_each_other_end_the_search_within_its_bound() -> None:
    # 4 of the 6 white wool a banner takes: no way without digging, and the wools' and dyes'
    # circles hold millions of orders; the search stops at MAX_TRIES per pass
    tried = []
    original = crafting_plan._Planner.need

    def need(self, *args, **kwargs):
        tried.append(1)
        return original(self, *args, **kwargs)

    crafting_plan._Planner.need = need
    try:
        half = plan("white_banner", 1, {"white_dye": 4, "black_wool": 4, "oak_planks": 2, "crafting_table": 1}, set())
    finally:
        crafting_plan._Planner.need = original
    assert half.steps or half.unobtainable
    assert len(tried) < 1_000_000  # unbounded, the search went past 10 million needs (minutes)
    both = {"white_dye": 7, "black_wool": 7, "oak_planks": 3, "crafting_table": 1}  # a team's two inventories
    assert used_up("white_banner", 1, both, set()) == {"white_dye": 6, "black_wool": 6, "oak_planks": 2,
                                                       "crafting_table": 1}  # the table is set down
