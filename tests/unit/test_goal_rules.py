"""A goal's words read as ordered sub-goals (agent/goals): names found anywhere in a clause with
the game's names (plurals, kinds such as "wood", dug things as what they drop), compound asks
split, "it"/"them" taking the thing before, "come back" as `within` the start, what storing needs
made a sub-goal first; grounding in the world makes places and kinds absolute; the outer loop's
focus is the first sub-goal that does not hold, and what a failed step lacked becomes a sub-goal
before it."""

from __future__ import annotations

import pytest

from agent.checks import Verdict
from agent.session.goal import goal_and_check
from agent.goals import Understanding, ground, read_grounds_for, understand
from agent.goals.grounds import PLAYER_APPEARS_S, PLAYER_POLL_S, Columns, Grounds, Point, Sighted
from agent.goals.needs import MAX_DEPTH, NEED_STEPS, costed, exactly, lacked, supported
from agent.mc.names import Item
from agent.planner.focus import Focus
from agent.server import load_scenario
from agent.session.world import WorldOptions


def read(goal: str) -> str:
    return understand(goal).line()


@pytest.mark.parametrize(("goal", "understood"), [
    ("Collect three oak logs", "1. has_item oak_log 3"),
    ("collect 3 oak logs from the tree", "1. has_item oak_log 3"),
    ("Gather 5 dirt blocks", "1. has_item dirt 5"),
    ("Mine two cobblestone.", "1. has_item cobblestone 2"),
    ("Get a stone pickaxe", "1. has_item stone_pickaxe 1"),
    ("get 2 torches", "1. has_item torch 2"),
    ("Collect three oak planks", "1. has_item oak_planks 3"),
    ("Stand next to the gold block", "1. near_block gold_block 2"),
    ("Find the gold block", "1. near_block gold_block 2"),
    ("walk to the gold block", "1. near_block gold_block 2"),
    ("Go near the diamond ore", "1. near_block diamond_ore 2"),
    ("Take three bread from the chest.", "1. has_item bread 3"),
    ("Follow alex as he walks away.", "1. near_player alex 3"),
    ("stay close to Steve_2", "1. near_player Steve_2 3"),
    ("get out of the cave to open sky", "1. sky_visible"),
    ("Leave the hall to a place where you can see the sky.", "1. sky_visible"),
    ("Craft a wooden pickaxe.", "1. has_item wooden_pickaxe 1"),
    # a name anywhere in the clause, not only at its end
    ("Find the gold block somewhere nearby and stand right next to it.", "1. near_block gold_block 2"),
    ("I need some sand, 4 should do", "1. has_item sand 4"),
    ("There's a block of gold around here. Walk over and stand right beside it.", "1. near_block gold_block 2"),
    # a name that is a plural in the game; "build" an item a recipe makes
    ("Build a shear.", "1. has_item shears 1"),
    # what digging gives
    ("mine 3 stone", "1. has_item cobblestone 3"),
    ("dig out three blocks of that stone", "1. has_item cobblestone 3"),
    # compound asks, in order
    ("Chop three oak logs and put them in the chest", "1. has_item oak_log 3  2. container_has oak_log 3"),
    ("collect 2 dirt, then come back here", "1. has_item dirt 2  2. within 2 of (0, 0, 0)"),
    ("Chop 4 birch logs and then come back", "1. has_item birch_log 4  2. within 2 of (0, 0, 0)"),
    ("get me 2 oak logs and 2 blocks of sand", "1. has_item oak_log 2  2. has_item sand 2"),
    # "them" is what the sentence before named; a count of its own goes with it
    ("There's a chest nearby with apples in it. Get me 3 of them.", "1. has_item apple 3"),
    # storing needs the things carried first
    ("Put five oak logs into the chest.", "1. has_item oak_log 5  2. container_has oak_log 5"),
    ("Put the dirt in the chest", "1. has_item dirt 1  2. container_has dirt 1"),
    ("You carry five oak logs. Stash them in the chest and come back here.",
     "1. has_item oak_log 5  2. container_has oak_log 5  3. within 2 of (0, 0, 0)"),
    # what is, not what is asked: "them" is what it names
    ("I have a pickaxe. Mine 3 stone with it", "1. has_item cobblestone 3"),
    # out of a hole: at the level of the ground around, which grounding reads
    ("get yourself up out of this hole", "1. all(feet_y_at_least 0, standing_on_ground)"),
    ("Get out of the pit and stand on the ground outside it; you carry dirt you can place.",
     "1. all(feet_y_at_least 0, standing_on_ground)"),
    # heights from the start
    ("stack blocks under yourself until you're 3 blocks higher than now", "1. feet_y_at_least 3"),
    ("climb up 4 blocks", "1. feet_y_at_least 4"),
    # the words players use for things: a tree is logs, "oak wood" oak logs, "iron" ingots
    ("Go chop down a tree", "1. has_item oak_log 1"),
    ("Get me some birch wood", "1. has_item birch_log 1"),
    ("stand by the oak tree", "1. near_block oak_log 2"),
    ("Cook some iron", "1. has_item iron_ingot 1"),
    ("I'd like a stack of dirt", "1. has_item dirt 64"),
    # a furnace's verb asks for what it makes; an ore no recipe makes is got as its drop
    ("Smelt 3 raw iron", "1. has_item iron_ingot 3"),
    ("cook 2 beef", "1. has_item cooked_beef 2"),
    ("Obtain iron ore", "1. has_item raw_iron 1"),
    ("Get coal from the coal ore", "1. has_item coal 1"),
    # what a clause uses is not what it asks for
    ("Turn the logs into planks", "1. has_item oak_planks 1"),
    ("Make some planks out of your logs", "1. has_item oak_planks 1"),
    ("craft a chest with 8 planks", "1. has_item chest 1"),
    ("Mine stone with a wooden pickaxe", "1. has_item cobblestone 1"),
    ("collect 3 oak logs from the tree", "1. has_item oak_log 3"),
    ("From the chest, take 3 apples", "1. has_item apple 3"),
    # a place by its coordinates, a height by the game's y
    ("Go to 10 64 -5", "1. within 2 of (10, 64, -5)"),
    ("Head to (12, 65, -8)", "1. within 2 of (12, 65, -8)"),
    ("go to x=10, y=64, z=-5 and then come back", "1. within 2 of (10, 64, -5)  2. within 2 of (0, 0, 0)"),
    ("Climb to y 80", "1. feet_y_at_least 80"),
    # a family by its last word, the cheapest first; a table is the crafting table
    ("Get wood, craft a table, and make a pickaxe",
     "1. has_item oak_log 1  2. has_item crafting_table 1  3. has_item wooden_pickaxe 1"),
    ("make a bed", "1. has_item black_bed 1"),
    # a count alone is of the thing just named; a question asks nothing
    ("Do you have any logs? Get me 2", "1. has_item oak_log 2"),
    ("Get 3x oak log", "1. has_item oak_log 3"),
])
def test_a_goal_s_words_become_its_sub_goals_in_order(goal: str, understood: str) -> None:
    assert read(goal) == understood


@pytest.mark.parametrize("goal", [
    "get out of the cave",  # where out is, the words do not say
    "get me out of here",
    "keep notes of what you see",
    "collect three shiny things",  # not an item the game has
    "find the exit",  # not a block
    "get a look around",
    "put the shiny things in the chest",
    "get some air",  # air is no thing to get
    "Walk to x=20, z=30",  # no height: no place a walk is judged at
    "Dig down to y 12",  # no check says "at most"
])
def test_a_goal_no_rule_reads_has_no_sub_goal_and_no_check(goal: str) -> None:
    goals = understand(goal)
    assert goals.subgoals == [] and goals.check is None


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
