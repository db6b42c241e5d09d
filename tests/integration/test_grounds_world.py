"""What bridge/helpers/grounds.js reads when asked, in a real world: the trees near (each log kind's
nearest tree, its logs counted through corner joins, not through another tree's leaves, bounded in
count and spread), and the nearest chest with what it holds summed by item; unasked, the reply is
as it was, with neither. World blocks: x east, y up, z south; the feet at (0.5, 5, 0.5)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent.bridge import BotConnection
from agent.goals.grounds import ChestSeen, Point, Stack, Tree, read_grounds
from agent.server import Scenario
from support.waiting import wait_for
from support.world_body import standing_in

# A birch of 6 logs: a trunk of 5 and a branch that touches it only at a corner; a second birch 3
# blocks off, touching the first only through their leaves, is another tree.
BIRCH = [(6, y, 0) for y in range(5, 10)] + [(7, 9, 1)]
OTHER_BIRCH = [(9, y, 3) for y in range(5, 8)]
OAK = [(-7, y, 0) for y in range(5, 9)]
# A heap of 100 spruce logs (5 x 4 x 5) counts as a tree's most, 64; a row of 10 jungle logs
# along x counts the 7 within 6 blocks of its nearest, (4, 5, -8).
SPRUCE = ((-12, 5, 8), (-8, 8, 12))
JUNGLE = [(x, 5, -8) for x in range(4, 14)]
STRIPPED = (3, 5, 3)  # a build's log, not a tree's
CHEST, FAR_CHEST = (0, 5, -4), (0, 5, -10)
GROVE = Scenario.model_validate({
    "name": "grove-chests",
    "description": "a birch, a second birch under the same leaves, an oak, a heap and a row of logs, two chests",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "boxes": [{"block": "birch_leaves", "from": [5, 8, -1], "to": [10, 10, 4]},
              {"block": "spruce_log", "from": list(SPRUCE[0]), "to": list(SPRUCE[1])}],
    "blocks": [*({"block": "birch_log", "at": list(c)} for c in BIRCH + OTHER_BIRCH),
               *({"block": "oak_log", "at": list(c)} for c in OAK),
               *({"block": "jungle_log", "at": list(c)} for c in JUNGLE),
               {"block": "stripped_oak_log", "at": list(STRIPPED)}],
    # bread in two slots: the read sums them
    "chests": [{"at": list(CHEST), "items": [{"name": "bread", "count": 3}, {"name": "stick", "count": 4},
                                             {"name": "bread", "count": 2}]},
               {"at": list(FAR_CHEST), "items": [{"name": "diamond", "count": 1}]}],
})
# What the grounds reply held before trees and chest were asked for: an unasked read is unchanged.
PLAIN_KEYS = {"feet", "facing", "carried", "players", "blocks", "ground_y", "hole"}


@pytest.fixture(scope="module")
def grove() -> Iterator[BotConnection]:
    for bot in standing_in(GROVE, "forester"):
        # the farthest blocks' chunks come a moment after the spawn's
        far = {SPRUCE[1]: "spruce_log", JUNGLE[-1]: "jungle_log", OAK[-1]: "oak_log", FAR_CHEST: "chest"}
        assert wait_for(lambda: all(bot.block_at(*cell) == name for cell, name in far.items()), timeout_s=10)
        yield bot


def _at(cell: tuple[int, int, int]) -> Point:
    x, y, z = cell
    return Point(x=x, y=y, z=z)


def test_asked_for_trees_each_log_kind_s_nearest_tree_is_counted_nearest_first(grove: BotConnection) -> None:
    grounds = read_grounds(grove, trees=True)
    assert grounds is not None
    assert grounds.trees == [Tree(name="birch_log", logs=6, at=_at(BIRCH[0])),
                             Tree(name="oak_log", logs=4, at=_at(OAK[0])),
                             Tree(name="jungle_log", logs=7, at=_at(JUNGLE[0])),
                             Tree(name="spruce_log", logs=64, at=Point(x=-8, y=5, z=8))]
    assert "stripped_oak_log" in grounds.kinds and grounds.chest is None  # seen, not a tree; no chest asked


def test_asked_for_the_chest_the_nearest_one_s_contents_are_summed_by_item(grove: BotConnection) -> None:
    grounds = read_grounds(grove, chest=True)
    assert grounds is not None and grounds.trees == []
    assert grounds.chest is not None and grounds.chest.at == _at(CHEST)
    assert sorted(grounds.chest.items, key=lambda s: s.name) == [Stack(name="bread", count=5), Stack(name="stick", count=4)]
    near = grove.call("grounds", {"radius": 2, "half_height": 2, "names": [], "chest": True})
    assert near["chest"] is None  # none in a box of 2 around the feet


def test_unasked_the_reply_is_as_before_with_neither_trees_nor_chest(grove: BotConnection) -> None:
    for flags in ({}, {"trees": False, "chest": False}):
        reply = grove.call("grounds", {"radius": 16, "half_height": 8, "names": [], **flags})
        assert set(reply) == PLAIN_KEYS, flags
    grounds = read_grounds(grove)
    assert grounds is not None and grounds.trees == [] and grounds.chest is None
    assert {"birch_log", "oak_log", "chest"} <= set(grounds.kinds)  # the same world, seen
    both = read_grounds(grove, trees=True, chest=True)
    assert both is not None and [t.name for t in both.trees][:2] == ["birch_log", "oak_log"]
    assert both.chest == ChestSeen(at=_at(CHEST), items=[Stack(name="bread", count=5), Stack(name="stick", count=4)])
