"""Working together (agent/goals/asking.py): a need a teammate can meet is asked of it, given to
it or left to it, by a rule both sides settle alike; a player's line asking for an item the bot
carries becomes a give; the focus works on these first and gives them up after their steps; and
the planner reads the inbox before each step into the prompt and the trace."""

from __future__ import annotations

import itertools

import pytest

from agent.checks import Verdict
from agent.checks.model import parse_check
from agent.chat.team import Holding, Holdings, Message, is_command
from agent.goals import Understanding
from agent.goals.asking import ASK_STEPS, ASK_WAIT_S, asked_for, give, gives, teamwork
from agent.goals.needs import lacked, needed
from agent.mc.names import Item
from agent.planner.focus import Focus
from agent.trace.schema import MessageRead
from support.planning import act, rig

SHEARS = parse_check({"team_has": {"name": "shears"}}, "check")
IRON = "iron_ingot"


def holding(player: str, iron: int) -> Holding:
    return Holding(player=player, items=[Item(name=IRON, count=iron)] if iron else [])


def team(me: Holding, *mates: Holding) -> Holdings:
    return Holdings(me=me, mates=list(mates))


NEED = 2  # shears: two iron ingots


def way(me: Holding, *mates: Holding, need: int = NEED) -> str | None:
    """What the bot `me` does about lacking iron: the sub-goal's words, or None (alone)."""
    subgoal = teamwork(Item(name=IRON, count=need), team(me, *mates), SHEARS, "mc-craft", 1)
    return None if subgoal is None else subgoal.says


def message(text: str, player: str = "alice") -> Message:
    return Message(player=player, text=text, whispered=True, time=0.0)


def test_team_has_is_the_team_s_check_and_one_bot_works_towards_it_as_has_item() -> None:
    assert SHEARS.describe() == "team_has shears 1" and SHEARS.as_data() == {"team_has": {"name": "shears", "count": 1}}
    assert SHEARS.mine().describe() == "has_item shears 1"
    both = parse_check({"all": [{"team_has": {"name": "shears", "count": 2}}, {"sky_visible": True}]}, "check")
    assert both.mine().describe() == "all(has_item shears 2, sky_visible)"


def test_of_two_with_one_ingot_each_the_name_first_asks_and_the_other_gives() -> None:
    alice, bob = holding("alice", 1), holding("bob", 1)
    assert way(alice, bob) == "ask bob for 1 iron_ingot (mc-craft needs it)"
    assert way(bob, alice) == "give alice 1 iron_ingot"


def test_the_name_first_gathers_the_others_give_it_what_it_lacks_or_wait() -> None:
    alice, bob = holding("alice", 1), holding("bob", 2)
    assert way(alice, bob, need=3) == "ask bob for 2 iron_ingot (mc-craft needs it)"  # alice gathers
    assert way(bob, alice, need=3) == "give alice 2 iron_ingot"
    assert way(holding("alice", 0), holding("bob", 1)) == "ask bob for 1 iron_ingot (mc-craft needs it)"
    assert way(holding("bob", 1), holding("alice", 0)) == "give alice 1 iron_ingot"
    assert way(holding("bob", 0), holding("alice", 0)) == "wait while alice makes it"
    assert way(holding("alice", 1), holding("bob", 0)) is None  # nobody to ask: the gatherer gets it alone
    assert way(holding("alice", 2), holding("bob", 1)) is None  # it carries enough


def test_two_bots_each_lacking_what_the_other_carries_name_one_gatherer() -> None:
    """Planks with one, sticks with the other, a pickaxe wanted: a rule item by item named a
    gatherer for each, and both waited."""
    planks = Holding(player="agent0", items=[Item(name="oak_planks", count=10)])
    sticks = Holding(player="agent1", items=[Item(name="stick", count=10)])
    wants = lambda item, n, me, mate: teamwork(Item(name=item, count=n), Holdings(me=me, mates=[mate]),  # noqa: E731
                                               SHEARS, "craft", 1)
    assert wants("stick", 2, planks, sticks).says == "ask agent1 for 2 stick (craft needs it)"
    assert wants("oak_planks", 3, sticks, planks).says == "wait while agent0 makes it"


@pytest.mark.parametrize(("a", "b"), list(itertools.product(range(3), repeat=2)))
def test_never_both_ask_nor_both_give(a: int, b: int) -> None:
    alice, bob = holding("alice", a), holding("bob", b)
    ways = [way(alice, bob) or "", way(bob, alice) or ""]
    assert sum(w.startswith("ask") for w in ways) <= 1 and sum(w.startswith("give") for w in ways) <= 1
    # an ask is met by the other's give, unless the other carries enough to make it itself
    if any(w.startswith("ask") for w in ways) and a and b and max(a, b) < NEED:
        assert sum(w.startswith("give") for w in ways) == 1


def test_a_bot_asks_the_teammate_carrying_most_and_the_ask_states_its_tools() -> None:
    ask = teamwork(Item(name=IRON, count=3), team(holding("bob", 2), holding("carol", 1), holding("dave", 1)),
                   SHEARS, "mc-craft", 1)
    assert ask is not None and ask.says == "ask carol for 1 iron_ingot (mc-craft needs it)"
    assert ask.check.describe() == "has_item iron_ingot 3" and ask.by == "team" and not ask.lasting
    assert ask.given == {"mc-tell": {"player": "carol", "text": "please give me 1 iron_ingot"},
                         "mc-wait": {"seconds": ASK_WAIT_S, "until_carried": {"name": IRON, "count": 3}}}


def test_a_need_a_teammate_can_meet_is_asked_and_one_none_carries_is_got_alone() -> None:
    items = lacked({"missing": [{"name": IRON, "count": 1}, {"name": "stick", "count": 1}],
                    "inventory": [{"name": IRON, "count": 1}]})
    subgoals = needed(items, "mc-craft", 1, team(holding("alice", 1), holding("bob", 1)), SHEARS)
    assert [s.says for s in subgoals] == ["ask bob for 1 iron_ingot (mc-craft needs it)", "get 1 stick (mc-craft needs it)"]
    assert [s.says for s in needed(items, "mc-craft", 1)] == ["get 2 iron_ingot (mc-craft needs it)",
                                                              "get 1 stick (mc-craft needs it)"]


@pytest.mark.parametrize(("text", "asked"), [
    ("please give me 1 iron_ingot", Item(name=IRON)),
    ("Give me 3 iron_ingot now", Item(name=IRON, count=3)),
    ("hand me oak_log", Item(name="oak_log")),
    ("give me 2 unobtainium", None),
    ("give me 0 iron_ingot", None),
    ("what are you doing", None),
])
def test_an_ask_is_read_from_a_line_with_an_item_s_name(text: str, asked: Item | None) -> None:
    assert asked_for(text) == asked


def test_asks_for_what_the_bot_carries_become_gives_of_at_most_what_it_carries_one_per_player_and_item() -> None:
    me = Holding(player="bob", items=[Item(name=IRON, count=2)])
    made = gives([message("please give me 1 iron_ingot"), message("please give me 5 iron_ingot"),
                  message("please give me 1 diamond"), message("hello", "carol")], me)
    assert [(g.says, g.check.describe(), g.given) for g in made] == [
        ("give alice 2 iron_ingot", "not(has_item iron_ingot 1)",
         {"mc-give": {"player": "alice", "item": IRON, "count": 2}})]
    assert give("alice", Item(name=IRON), 2).check.describe() == "not(has_item iron_ingot 2)"  # one fewer


def test_a_command_is_the_commander_s_not_a_message() -> None:
    assert is_command("!goal get wood") and not is_command("please give me 1 iron_ingot")
    assert message("please give me 1 iron_ingot").line() == "alice (whispered): please give me 1 iron_ingot"


def test_a_give_goes_before_the_focus_once_and_is_given_up_after_its_steps() -> None:
    focus = Focus(Understanding.given("Craft shears", SHEARS), lambda check: Verdict(holds=False, detail=""))
    focus.update()
    wanted = gives([message("please give me 1 iron_ingot")], holding("bob", 1))
    [(index, added)] = focus.take(wanted)
    assert index == 0 and focus.take(wanted) == []  # said twice, taken once
    assert [focus.update() for _ in range(ASK_STEPS + 1)] == [added] + [None] * (ASK_STEPS - 1) + [
        focus.goals.subgoals[1]]  # the shears again


def test_a_teammates_ask_goes_before_this_bots_own_wait_for_that_teammate() -> None:
    # bob, not the gatherer, lacks iron and waits while alice makes the shears; then alice asks
    # him for his ingot: the give must come first, or each waits on the other
    focus = Focus(Understanding.given("Craft shears", SHEARS), lambda check: Verdict(holds=False, detail=""))
    focus.update()
    [(_, waiting)] = focus.need([Item(name=IRON, count=2)], "mc-craft", team(holding("bob", 0), holding("alice", 1)))
    assert waiting.says == "wait while alice makes it"  # read at the next step, after the inbox:
    [(index, handing)] = focus.take(gives([message("please give me 1 iron_ingot")], holding("bob", 1)))
    assert index == 0 and focus.update() == handing and handing.says == "give alice 1 iron_ingot"


class Inbox:
    """A team whose inbox holds one line, read once; its teammate carries one iron ingot."""

    def __init__(self) -> None:
        self.lines = [message("please give me 1 iron_ingot")]

    def unread(self) -> list[Message]:
        lines, self.lines = self.lines, []
        return lines

    def holdings(self) -> Holdings:
        return team(holding("bob", 1), holding("alice", 1))


def test_the_planner_reads_the_inbox_before_a_step_into_the_prompt_and_the_trace() -> None:
    r = rig([*act("echo", {"text": "hi"}), "no", "next"], max_steps=1)
    r.planner.run("say hi", r.executor, world="a test bench", team=Inbox())
    assert "MESSAGES (what players said to you since the last step):\nalice (whispered): please give me 1 iron_ingot" \
        in r.prompts()[0]
    [read] = [e for e in r.trace.events if isinstance(e, MessageRead)]
    assert (read.player, read.whispered, read.became, read.outer_step) == ("alice", True, None, 1)  # no check: no focus
