"""A goal's words read as ordered sub-goals (agent/goals): every ask of the reading corpus's tune
part as written; words with their lemmas and numbers, names through one table of aliases; where two
readings fit, neither; words no rule covers said back; grounding in the world makes places, kinds
and counts absolute (the nearest tree's logs, all carried, the nearest chest and what it holds, a
height above the ground); the outer loop's focus is the first sub-goal that does not hold, and what
a failed step lacked becomes a sub-goal before it."""

from __future__ import annotations

import pytest

from agent.checks import Verdict
from agent.session.goal import goal_and_check
from agent.eval.reading_corpus import Case, corpus, score
from agent.goals import Understanding, ground, read_grounds_for, understand
from agent.goals.grounds import PLAYER_APPEARS_S, PLAYER_POLL_S, ChestSeen, Columns, Grounds, Point, Sighted, Stack, Top, Tree
from agent.goals.reading.lexicon import lexicon
from agent.goals.reading.words import word, words_of
from agent.mc.aliases import item_id, today
from agent.goals.needs import MAX_DEPTH, NEED_STEPS, costed, exactly, lacked, supported
from agent.mc.names import Item
from agent.planner.focus import Focus
from agent.server import load_scenario
from agent.session.world import WorldOptions


def read(goal: str) -> str:
    return understand(goal).line()


@pytest.mark.parametrize("case", [c for c in corpus() if c.part == "tune"], ids=lambda c: c.ask[:60])
def test_every_ask_of_the_reading_corpus_s_tune_part_is_read_as_written(case: Case) -> None:
    assert score(case).got == case.expect


def test_the_corpus_parts_share_no_ask_and_every_one_item_mindcraft_goal_is_read_right() -> None:
    cases = corpus()
    tune = {c.ask for c in cases if c.part == "tune"}
    assert not tune & {c.ask for c in cases if c.part == "test"}
    assert len(cases) >= 600
    mindcraft = [score(c) for c in cases if c.part == "mindcraft"]
    assert mindcraft and all(s.verdict == "right" for s in mindcraft)


@pytest.mark.parametrize(("text", "words", "numbers"), [
    ("you're carrying twenty-five torches", ["you", "are", "carrying", "25", "torches"], [25.0]),
    ("gimme a couple of logs", ["give", "me", "2", "logs"], [2.0]),
    ("There's half a dozen eggs in alex's chest", ["there", "is", "6", "eggs", "in", "alex", "chest"], [6.0]),
    ("get 3x oak_log", ["get", "3x", "oak_log"], [3.0]),
])
def test_words_are_read_with_contractions_spelled_out_and_numbers_as_numbers(text, words, numbers) -> None:
    found = words_of(text)
    assert [w.text for w in found] == words and [w.number for w in found if w.number is not None] == numbers


def test_a_word_carries_its_lemmas_so_any_form_of_a_verb_or_a_name_is_found() -> None:
    assert {"chop"} <= word("chopped").lemmas and {"dig"} <= word("dug").lemmas and {"leaf"} <= word("leaves").lemmas
    assert lexicon().intents(word("grabbed")) == ["get"]


@pytest.mark.parametrize(("name", "today_"), [
    ("wooden_door", "oak_door"), ("cooked_fish", "cooked_cod"), ("speckled_melon", "glistering_melon_slice"),
    ("fence_gate", "oak_fence_gate"), ("rose_red", "red_dye"), ("web", "cobweb"), ("reeds", "sugar_cane"),
    ("slimeball", "slime_ball"), ("cobble", "cobblestone"), ("oak_log", "oak_log"), ("shiny_thing", None),
])
def test_one_table_of_aliases_names_every_old_or_other_name_as_today_s_id(name: str, today_: str | None) -> None:
    assert today(name) == today_


def test_a_peer_s_item_name_is_today_s_item_or_none() -> None:
    assert item_id("minecraft:rose_red") == "red_dye" and item_id("pond") is None  # water is no item


@pytest.mark.parametrize(("goal", "why"), [
    ("smelt stone", "stone, or what a furnace makes of it (smooth_stone)? say which"),
    ("get the apples and the bread, then put it in the chest", "it could be more than one thing said before, or nothing"),
    ("collect all the dirt", "all of it where? say how many, or \"all you are carrying\""),
])
def test_where_two_readings_fit_neither_is_taken_and_the_words_say_why(goal: str, why: str) -> None:
    assert why in [u.why for u in understand(goal).unread]


def test_words_no_rule_covers_are_said_back_while_the_rest_is_read() -> None:
    read = understand("put 10 dirt in the chest in the shed")
    assert read.line() == "1. has_item dirt 10  2. container_has dirt 10 at the nearest chest"
    assert read.partly and read.unread_line() == 'not understood: "the shed" (no such thing in the game: shed)'
    nothing = understand("tell me a joke")
    assert nothing.subgoals == [] and not nothing.partly and nothing.unread


def test_what_a_later_sub_goal_uses_up_does_not_last_so_the_run_s_check_is_what_must_hold_at_the_end() -> None:
    stored = understand("Chop three oak logs and put them in the chest")
    assert [g.lasting for g in stored.subgoals] == [False, True]
    assert stored.check.describe() == "container_has oak_log 3"
    planks = understand("chop some wood and turn it into planks, 8 of them")
    assert [(g.check.describe(), g.lasting) for g in planks.subgoals] == [
        ("has_item oak_log 1", False), ("has_item oak_planks 8", True)]
    back = understand("collect 2 dirt, then come back here")
    assert back.check.describe() == "all(has_item dirt 2, within 2 of (0, 0, 0))"


@pytest.mark.parametrize(("goal", "lasting"), [
    ("Collect three logs, craft planks from them, then make a crafting table", [False, False, True]),
    ("Chop a tree then make a crafting table", [False, True]),  # the table's planks are made from the log
    ("Gather 4 raw iron and smelt it", [False, True]),
    ("get 3 cobblestone then craft a furnace", [False, True]),
    ("get 2 dirt then make a stone pickaxe", [True, True]),  # no pickaxe is made from dirt
    ("get 3 logs and come back with them", [True, True]),
])
def test_an_earlier_sub_goal_a_later_one_is_made_from_does_not_last(goal: str, lasting: list[bool]) -> None:
    assert [g.lasting for g in understand(goal).subgoals] == lasting


def grounds(**values) -> Grounds:
    return Grounds(feet=Point(x=3.5, y=5.0, z=-2.5), **values)


def test_grounding_puts_places_at_the_start_and_picks_a_kind_carried_else_seen_else_its_first() -> None:
    goals = understand("get three logs then walk back to where you started")
    seen = ground(goals, grounds(blocks=[Sighted(name="dirt", distance=1), Sighted(name="birch_log", distance=4)]))
    assert seen.line() == "1. has_item birch_log 3  2. within 2 of (3.5, 5, -2.5)"
    carried = ground(goals, grounds(carried={"spruce_log": 1}, blocks=[Sighted(name="birch_log", distance=4)]))
    assert carried.subgoals[0].check.describe() == "has_item spruce_log 3"
    assert ground(goals, grounds()).subgoals[0].check.describe() == "has_item oak_log 3"
    assert all(g.grounded for g in seen.subgoals)
    risen = ground(understand("climb up 4 blocks"), grounds())
    assert risen.line() == "1. feet_y_at_least 9"
    out = understand("climb out of the pit")
    assert ground(out, grounds(ground_y=5.0)).line() == "1. all(feet_y_at_least 5, standing_on_ground)"  # not in one
    hole = Columns.model_validate({"from": [-2, -1], "to": [2, 1]})
    assert ground(out, grounds(ground_y=8.0, hole=hole)).line() == (
        "1. all(feet_y_at_least 8, standing_on_ground, outside x -2..2 y -64..319 z -1..1)")  # not on a pillar in it
    assert ground(out, grounds()).subgoals == []  # no ground read: no check rather than a wrong one


def test_grounding_counts_a_tree_s_logs_and_all_carried_and_names_the_nearest_chest_and_what_it_holds() -> None:
    world = grounds(carried={"dirt": 10, "birch_log": 1}, ground_y=5.0,
                    trees=[Tree(name="birch_log", logs=5, at=Point(x=5.0, y=5.0, z=-2.0)),
                           Tree(name="oak_log", logs=7, at=Point(x=20.0, y=5.0, z=0.0))],
                    chest=ChestSeen(at=Point(x=3.0, y=5.0, z=4.0), items=[Stack(name="apple", count=3),
                                                                          Stack(name="bread", count=2)]))
    assert ground(understand("chop down the birch tree"), world).line() == "1. has_item birch_log 6"  # 1 carried
    assert ground(understand("cut down that tree"), world).line() == "1. has_item birch_log 6"  # the nearest tree
    assert ground(understand("put the dirt you are carrying into the chest"), world).line() == (
        "1. has_item dirt 10  2. container_has dirt 10 at (3, 5, 4)")
    assert ground(understand("empty that chest, I want everything in it"), world).line() == (
        "1. all(has_item apple 3, has_item bread 2)")
    assert ground(understand("pile up dirt until you're four blocks off the ground"), world).line() == (
        "1. feet_y_at_least 9")
    assert ground(understand("give alex 3 dirt"), world).line() == "1. has_item dirt 3  2. not(has_item dirt 8)"
    platform = ground(understand("climb up onto the stone platform"), world.model_copy(update={"tops": [
        Top(name="stone", y=6)]}))
    assert platform.line() == "1. all(standing_on stone, feet_y_at_least 7)"  # its top, not its step
    assert ground(understand("climb up onto the stone platform"), world).line() == "1. standing_on stone"
    bare = grounds()  # no tree, nothing carried, no chest, no ground read: nothing is asked rather than a guess
    for goal in ("chop down the birch tree", "put the dirt you are carrying into the chest",
                 "empty that chest", "pile up dirt until you're four blocks off the ground"):
        assert ground(understand(goal), bare).subgoals == [], goal


def test_a_player_meant_by_a_pronoun_is_one_online_the_goal_names_else_the_only_one_else_none() -> None:
    goals = understand("alex is about to head off, stick with him")
    assert ground(goals, grounds(players=["alex", "sam"])).line() == "1. near_player alex 3"
    assert ground(goals, grounds(players=["sam"])).line() == "1. near_player sam 3"
    assert ground(goals, grounds(players=["sam", "kim"])).subgoals == []
    assert ground(goals, grounds()).subgoals == []
    for words in ("follow me", "Come with me, Steve"):  # "me": the speaker, known only when one is online
        assert ground(understand(words), grounds(players=["sam"])).line() == "1. near_player sam 3"
        assert ground(understand(words), grounds()).subgoals == []
    assert ground(understand("Come with me, Steve"), grounds(players=["sam", "Steve"])).line() == (
        "1. near_player Steve 3")


class _Joining:
    """A bridge whose grounds list `appears` among the players from its `after`-th read (a player
    whose entity reaches the bot a moment after its join)."""

    def __init__(self, appears: str, after: int) -> None:
        self.appears, self.after, self.reads = appears, after, 0

    def call(self, name: str, args: dict) -> dict:
        self.reads += 1
        return {"feet": {"x": 0.5, "y": 5, "z": 0.5}, "players": [self.appears] if self.reads >= self.after else []}


class _Clock:
    """time.monotonic and time.sleep on a clock of the test's own: sleeping moves it on."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_a_run_reads_the_world_again_until_a_player_its_goal_is_about_comes_into_view(monkeypatch) -> None:
    monkeypatch.setattr("agent.goals.grounds.time", _Clock())
    words = "alex is about to head off, stick with him"
    goals, bot = understand(words), _Joining("alex", after=3)
    assert ground(goals, read_grounds_for(bot, words, goals)).line() == "1. near_player alex 3"
    assert bot.reads == 3
    no_player = _Joining("alex", after=3)  # a goal about no player reads once
    read_grounds_for(no_player, "get 3 dirt", understand("get 3 dirt"))
    assert no_player.reads == 1
    never = _Joining("alex", after=10**6)  # nobody comes: the sub-goal is left out after 5 s of reads
    assert ground(goals, read_grounds_for(never, words, goals)).subgoals == []
    assert never.reads == 1 + round(PLAYER_APPEARS_S / PLAYER_POLL_S)


def test_the_focus_is_the_first_sub_goal_that_does_not_hold_and_moves_back_when_one_is_undone() -> None:
    goals = understand("collect 2 dirt, then come back here")
    holding: set[str] = set()
    focus = Focus(goals, lambda check: Verdict(holds=check.describe() in holding, detail=""))
    assert focus.update() is goals.subgoals[0] and focus.index == 0
    assert focus.update() is None  # still the first
    holding.add("has_item dirt 2")
    assert focus.update() is goals.subgoals[1] and focus.index == 1
    holding.clear()  # the dirt was dropped on the way back
    assert focus.update() is goals.subgoals[0]


def test_a_sub_goal_a_later_one_uses_up_is_done_for_good_once_it_has_held() -> None:
    goals = understand("Chop three oak logs and put them in the chest, then come back here")
    holding = {"has_item oak_log 3"}
    focus = Focus(goals, lambda check: Verdict(holds=check.describe() in holding, detail=""))
    assert focus.update() is goals.subgoals[1]
    holding = {"container_has oak_log 3"}  # stored: no longer carried, and not to be taken out again
    assert focus.update() is goals.subgoals[2] and focus.index == 2


def test_a_place_left_for_a_later_one_need_not_last_but_the_run_is_not_done_before_it_has_held() -> None:
    goals = understand("find the gold block and then come back here")
    assert [(g.check.describe(), g.lasting) for g in goals.subgoals] == [
        ("near_block gold_block 2", False), ("within 2 of (0, 0, 0)", True)]
    assert goals.check.describe() == "within 2 of (0, 0, 0)"
    holding = {"within 2 of (0, 0, 0)"}  # at the start, where coming back already holds
    focus = Focus(goals, lambda check: Verdict(holds=check.describe() in holding, detail="read"))
    focus.update()
    refused = focus.judge(goals.check)
    assert not refused.holds and "near_block gold_block 2" in refused.detail and "has not held yet" in refused.detail
    holding = {"near_block gold_block 2"}
    assert not focus.judge(goals.check).holds  # at the gold: it has held now, but not back yet
    holding = {"within 2 of (0, 0, 0)"}
    assert focus.judge(goals.check).holds
    # what a chest or the bot holds is no place passed through: storing needs no carrying seen
    stored = understand("put 3 dirt in the chest")
    focus = Focus(stored, lambda check: Verdict(holds=check.describe() == "container_has dirt 3", detail=""))
    assert focus.judge(stored.check).holds
    # out of the hole, then on the grass: both places, the first passed through
    assert [g.lasting for g in understand("climb up out of here and stand on the grass").subgoals] == [False, True]


def test_within_a_sub_goal_whose_check_is_an_all_the_offer_aims_at_the_parts_left_to_do() -> None:
    pit = load_scenario("deep-pit")
    focus = Focus(Understanding.given(pit.goal, pit.success), lambda check: Verdict(
        holds=check.describe() in holding, detail=""))
    holding: set[str] = set()
    focus.update()
    assert focus.unmet() == pit.success  # nothing holds: the whole check
    holding.add("feet_y_at_least 5")
    holding.add("standing_on_ground")
    assert focus.unmet().describe().startswith("outside")  # high enough, but not out yet
    holding.discard("standing_on_ground")
    assert [c.describe()[:8] for c in focus.unmet().all] == ["outside ", "standing"]


def test_what_a_failed_report_lacked_is_read_as_totals_to_carry_and_other_missing_lists_are_not_needs() -> None:
    refused_craft = {"missing": [{"name": "oak_planks", "count": 2}, {"name": "stick", "count": 2}],
                     "inventory": [{"name": "oak_planks", "count": 1}, {"name": "dirt", "count": 5}]}
    # the 2 sticks are made of 2 more planks: without them the pickaxe would be short of planks again
    assert [(i.name, i.count) for i in lacked(refused_craft)] == [("oak_planks", 5), ("stick", 2)]
    assert [(i.name, i.count) for i in lacked({"missing": [{"name": "wooden_pickaxe", "count": 1}]})] == [
        ("wooden_pickaxe", 1)]  # mc-collect's needs_tool: none carried
    assert lacked({"missing": ["gold_block"]}) == []  # mc-find: kinds not found, not items
    assert lacked({"missing": [{"at": [1, 2, 3], "block": "dirt", "why": "nothing to place"}]}) == []  # mc-build
    short_build = {"missing": [{"x": 1, "y": 5, "z": 3, "block": "oak_planks", "reason": "no oak_planks"}],
                   "short": {"oak_door": 1, "oak_planks": 40}, "inventory": [{"name": "oak_planks", "count": 15}]}
    # mc-build's short, the planks first, counted with the door's 6 and a crafting table's 4 when none is at hand
    assert [(i.name, i.count) for i in lacked(short_build)] == [("oak_planks", 65), ("oak_door", 1)]
    assert [(i.name, i.count) for i in lacked(short_build, at_hand=["crafting_table"])] == [("oak_planks", 61), ("oak_door", 1)]
    assert exactly(short_build) and not exactly(refused_craft)  # an oak house's planks are oak, a pickaxe's any
    assert lacked(None) == [] and lacked("text") == [] and lacked({"missing": []}) == []


@pytest.mark.parametrize("short, at_hand, counted", [
    # a fence's sticks are made of planks too, and it needs a table; the spruce planks are another wood's
    ({"oak_fence": 3, "spruce_planks": 5, "oak_planks": 1}, [], {"oak_fence": 3, "spruce_planks": 5, "oak_planks": 11}),
    # planks are made of the logs lacked too; a torch's coal is found, not made, and needs no table
    ({"oak_log": 4, "oak_planks": 10, "torch": 4}, [], {"oak_log": 7, "oak_planks": 12, "torch": 4}),
    ({"cobblestone": 4, "glass_pane": 1}, [], {"cobblestone": 4, "glass_pane": 1}),  # made of nothing else lacked
    ({"iron_ingot": 4, "iron_block": 1}, [], {"iron_ingot": 4, "iron_block": 1}),  # made of each other: as lacked
])
def test_what_is_lacked_is_counted_with_what_making_the_rest_of_it_takes(short, at_hand, counted) -> None:
    assert costed(short, at_hand) == counted


def test_a_need_is_worked_on_before_the_sub_goal_whose_step_lacked_it_then_the_plan_goes_back() -> None:
    goals = understand("get a stone pickaxe, then come back here")
    holding: set[str] = set()
    focus = Focus(goals, lambda check: Verdict(holds=check.describe() in holding, detail=""))
    focus.update()
    wanted = lacked({"missing": [{"name": "wooden_pickaxe", "count": 1}]})
    added = focus.need(wanted, "mc-collect")
    assert [(i, g.check.describe(), g.by, g.depth, g.lasting) for i, g in added] == [
        (0, "has_item wooden_pickaxe 1", "need", 1, False)]
    assert focus.update() is added[0][1] and focus.goals.line().startswith("1. has_item wooden_pickaxe 1  2. has_item stone")
    assert focus.goals.check == goals.check  # a need is used up: the end's check is the goal's
    assert focus.need(wanted, "mc-collect") == []  # asked already
    holding.add("has_item wooden_pickaxe 1")
    assert focus.update().check.describe() == "has_item stone_pickaxe 1"  # back to the step that lacked it
    holding.clear()  # the pickaxe was used up (crafted into nothing here, say): done for good all the same
    assert focus.update() is None and focus.current.check.describe() == "has_item stone_pickaxe 1"


def test_needs_of_needs_stop_at_their_depth() -> None:
    focus = Focus(understand("get a stone pickaxe"), lambda check: Verdict(holds=False, detail=""))
    focus.update()
    for depth in range(1, MAX_DEPTH + 1):
        [(_, added)] = focus.need(lacked({"missing": [{"name": f"need_{depth}", "count": 1}]}), "mc-craft")
        assert added.depth == depth and focus.update() is added
    assert focus.need(lacked({"missing": [{"name": "stick", "count": 1}]}), "mc-craft") == []


def test_a_need_the_world_does_not_give_is_given_up_after_its_steps_and_the_plan_goes_on() -> None:
    focus = Focus(understand("get a stone pickaxe"), lambda check: Verdict(holds=False, detail=""))
    focus.update()
    [(_, need)] = focus.need(lacked({"missing": [{"name": "oak_planks", "count": 3}]}), "mc-craft")
    assert [focus.update() for _ in range(NEED_STEPS + 1)] == [need] + [None] * (NEED_STEPS - 1) + [
        focus.goals.subgoals[1]]  # the stone pickaxe again


def test_a_need_of_a_kind_names_the_member_the_world_supports() -> None:
    planks = Item(name="oak_planks", count=3)
    assert supported(planks, carried=[], seen=["dirt", "spruce_log"]).name == "spruce_planks"  # made from a log seen
    assert supported(planks, carried=["birch_planks"], seen=["spruce_log"]).name == "birch_planks"  # carried first
    assert supported(planks, carried=[], seen=[]) == planks and supported(Item(name="stick"), [], ["spruce_log"]).name == "stick"


def test_a_given_check_is_one_sub_goal_taken_as_written() -> None:
    world = WorldOptions(scenario=load_scenario("tree"))
    goal, check = goal_and_check(None, None, world)
    given = Understanding.given(goal, check)
    assert given.line() == "1. has_item oak_log 3" and [g.by for g in given.subgoals] == ["given"] and given.check == check
    assert Understanding.given(goal, None).check is None


def test_a_given_check_to_store_things_needs_them_carried_first() -> None:
    store = load_scenario("store")
    given = Understanding.given(store.goal, store.success)
    assert given.line() == "1. has_item oak_log 5  2. container_has oak_log 5 at (1, 5, 6)"
    assert [(g.by, g.lasting) for g in given.subgoals] == [("given", False), ("given", True)]
    assert given.check == store.success


def test_a_scenario_s_check_goes_with_its_own_goal_only() -> None:
    world = WorldOptions(scenario=load_scenario("tree"))
    assert goal_and_check(None, None, world)[1].describe() == "has_item oak_log 3"
    other = goal_and_check("Craft a wooden pickaxe.", None, world)[1]  # not the tree's "Collect three oak logs."
    assert other is None  # the run reads its own from the words (run_cmd), never the tree's
    assert goal_and_check("Craft a wooden pickaxe.", "has_item: {name: stick}", world)[1].describe() == "has_item stick 1"
