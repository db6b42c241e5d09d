"""What a reading says in a player's words (agent/goals/saying.py): a phrase per sub-goal's check,
joined as a person says them ("get 10 dirt and put it in the chest at 3 5 4"), said before the
world grounds it too, and the whole answer to a goal said in chat, with what was not understood.

The sub-goals are written out here rather than read from words: what a check is said as is this
module's; what words read as is the reader's (tests/unit/test_goal_rules.py)."""

from __future__ import annotations

from typing import Any

import pytest

from agent.blueprint.templates import Order
from agent.goals.saying import answer, check_phrase, item_words, phrase, plural, say
from agent.goals.understanding import SubGoal, Understanding, Unread

LOGS = ["oak_log", "birch_log", "spruce_log"]


def sub(check: dict[str, Any], says: str = "", **fields: Any) -> SubGoal:
    return SubGoal(says=says or "words", check=check, **fields)


def reading(*subgoals: SubGoal, unread: tuple[str, ...] = (), goal: str = "the goal") -> Understanding:
    return Understanding(goal=goal, subgoals=list(subgoals), unread=[Unread(words=w) for w in unread])


HAS_DIRT = sub({"has_item": {"name": "dirt", "count": 10}})
STORED_DIRT = sub({"container_has": {"at": [3, 5, 4], "name": "dirt", "count": 10}})


@pytest.mark.parametrize(("check", "said"), [
    ({"has_item": {"name": "oak_log", "count": 3}}, "get 3 oak logs"),
    ({"has_item": {"name": "oak_log", "count": 1}}, "get an oak log"),
    ({"has_item": {"name": "stone_pickaxe", "count": 1}}, "get a stone pickaxe"),
    ({"has_item": {"name": "dirt", "count": 10}}, "get 10 dirt"),
    ({"has_item": {"name": "oak_planks", "count": 4}}, "get 4 oak planks"),
    ({"has_item": {"name": "torch", "count": 2}}, "get 2 torches"),
    ({"team_has": {"name": "shears", "count": 1}}, "get 1 shears for the team"),
    ({"container_has": {"at": [3, 5, 4], "name": "dirt", "count": 10}}, "put 10 dirt in the chest at 3 5 4"),
    ({"container_has": {"name": "cobblestone", "count": 5}}, "put 5 cobblestone in a chest nearby"),
    ({"near_block": {"block": "water"}}, "go to the water"),
    ({"near_block": {"block": "gold_block", "distance": 2.0}}, "go to the gold block"),
    ({"standing_on": {"block": "stone"}}, "stand on the stone"),
    ({"near_player": {"name": "alex"}}, "stay with alex"),
    ({"within": {"x": 12.0, "y": 65.0, "z": -8.0, "distance": 2.0}}, "go to 12 65 -8"),
    ({"within": {"x": 0.5, "y": 65.0, "z": -0.5, "distance": 2.0}}, "go to 0 65 -1"),
    ({"feet_y_at_least": 80.0}, "climb to y 80"),
    ({"sky_visible": True}, "get out under the open sky"),
    ({"avoided": ["lava"]}, "keep out of lava"),
    ({"avoided": ["lava", "fire"]}, "keep out of lava and fire"),
    ({"all": [{"feet_y_at_least": 64.0}, {"standing_on_ground": True},
              {"outside": {"from": [0, -64, 0], "to": [1, 319, 1]}}]}, "climb out onto the ground"),
    ({"block_at": {"at": [1, 2, 3], "block": "oak_door[half=lower]"}}, "put an oak door at 1 2 3"),
])
def test_each_check_is_one_short_phrase(check: dict[str, Any], said: str) -> None:
    assert phrase(sub(check)) == said


def test_a_build_is_said_in_the_words_it_was_asked_in() -> None:
    tower = {"blueprint": {"anchor": [0, 4, 2], "blocks": [{"at": [0, 0, 0], "block": "cobblestone"}]}}
    assert phrase(sub(tower, says="build a tower 6 high")) == "build a tower 6 high"
    house = {"all": [tower, {"shelter": {"at": [0, 4, 4]}}]}
    assert phrase(sub(house, says="please build a small house!")) == "build a small house"
    assert check_phrase(sub(tower).check) == "build it"


def test_a_give_says_whom_and_what() -> None:
    give = sub({"not": {"has_item": {"name": "apple", "count": 1}}},
               given={"mc-give": {"player": "alex", "item": "apple", "count": 3}})
    assert phrase(give) == "give alex 3 apples"
    got = sub({"has_item": {"name": "apple", "count": 3}})
    assert say(reading(got, give)) == "get 3 apples and give them to alex"


def test_anything_else_is_its_describe() -> None:
    outside = sub({"outside": {"from": [0, 0, 0], "to": [2, 2, 2]}})
    assert phrase(outside) == outside.describe() == "outside x 0..2 y 0..2 z 0..2"


def test_phrases_join_naturally_and_a_thing_said_before_is_it_or_them() -> None:
    assert say(reading(HAS_DIRT, STORED_DIRT)) == "get 10 dirt and put it in the chest at 3 5 4"
    logs = sub({"has_item": {"name": "oak_log", "count": 3}})
    stored = sub({"container_has": {"at": [3, 5, 4], "name": "oak_log", "count": 3}})
    back = sub({"within": {"x": 0.5, "y": 65.0, "z": 0.5, "distance": 2.0}})
    assert say(reading(logs, stored, back)) == "get 3 oak logs, put them in the chest at 3 5 4 and go to 0 65 0"
    other = sub({"container_has": {"at": [3, 5, 4], "name": "oak_log", "count": 2}})
    assert say(reading(logs, other)) == "get 3 oak logs and put 2 oak logs in the chest at 3 5 4"
    torches, iron = sub({"has_item": {"name": "torch", "count": 2}}), sub({"has_item": {"name": "iron_ingot", "count": 1}})
    assert say(reading(torches, iron)) == "get 2 torches and an iron ingot"
    assert say(reading(HAS_DIRT, HAS_DIRT)) == "get 10 dirt"  # one thing asked twice is said once
    assert say(reading()) == ""


def test_before_grounding_it_says_what_the_world_will_fill_in() -> None:
    some_logs = sub({"has_item": {"name": "oak_log", "count": 3}}, kinds=LOGS)
    into_nearest = sub({"container_has": {"name": "oak_log", "count": 3}}, kinds=LOGS, at_nearest=True)
    assert say(reading(some_logs, into_nearest)) == "get 3 logs and put them in the nearest chest"
    assert phrase(sub({"has_item": {"name": "oak_log", "count": 1}}, kinds=LOGS, count_of="tree")) == \
        "get the logs of the nearest tree"
    assert phrase(sub({"within": {"x": 0.0, "y": 0.0, "z": 0.0, "distance": 2.0}}, from_start=True)) == \
        "come back to where I started"
    assert phrase(sub({"feet_y_at_least": 4.0}, from_start=True)) == "climb 4 blocks higher"
    assert phrase(sub({"feet_y_at_least": 4.0}, above_ground=True)) == "climb to 4 blocks above the ground"
    assert phrase(sub({"all": [{"feet_y_at_least": 0.0}, {"standing_on_ground": True}]}, on_ground=True)) == \
        "climb out onto the ground"
    assert phrase(sub({"near_player": {"name": "someone"}}, players=["him"])) == "stay with the player you mean"
    assert phrase(sub({"has_item": {"name": "chest", "count": 1}}, contents=True)) == "take everything in the nearest chest"
    carried = sub({"has_item": {"name": "dirt", "count": 1}}, count_of="carried", lasting=False)
    stored = sub({"container_has": {"name": "dirt", "count": 1}}, count_of="carried", at_nearest=True)
    assert say(reading(carried, stored)) == "put all the dirt I carry in the nearest chest"
    house = sub({"blueprint": {"anchor": [0, 0, 2], "blocks": [{"at": [0, 0, 0], "block": "oak_planks"}]}},
                says="build a small house", building=Order(template="house"))
    assert phrase(house) == "build a small house"


def test_the_whole_answer_says_what_it_would_do_and_what_it_did_not_understand() -> None:
    assert answer(reading(HAS_DIRT, STORED_DIRT, unread=("the shed",))) == \
        "I'd get 10 dirt and put it in the chest at 3 5 4; I don't know what 'the shed' is"
    assert answer(reading(HAS_DIRT, unread=("the shed", "dance"))) == \
        "I'd get 10 dirt; I don't know what 'the shed' and 'dance' are"
    assert answer(reading(HAS_DIRT, STORED_DIRT)) == "I'll get 10 dirt and put it in the chest at 3 5 4"
    assert answer(reading(unread=("tell me a joke",))) == "I don't understand 'tell me a joke'"
    assert answer(reading(goal="  hmm ")) == "I don't understand 'hmm'"


def test_game_ids_are_words_counted_as_players_count_them() -> None:
    assert [item_words(n, c) for n, c in [("oak_log", 3), ("iron_ingot", 1), ("raw_iron", 3), ("sand", 1),
                                           ("shears", 2), ("glass", 4), ("lapis_lazuli", 2)]] == \
        ["3 oak logs", "an iron ingot", "3 raw iron", "1 sand", "2 shears", "4 glass", "2 lapis lazuli"]
    assert [plural(w) for w in ("torch", "potato", "berry", "bucket", "oak stairs")] == \
        ["torches", "potatoes", "berries", "buckets", "oak stairs"]
