"""What the world offers now, read in one bridge call (bridge/helpers/grounds.js): the items
carried, the other players online and the block kinds around the feet, nearest first. It grounds
a goal's words (the start that "come back here" means, the log kind that "some wood" means) and
the planner's arguments (agent/planner/domains.py: a name no world offered is never written).
"""

from __future__ import annotations

import math
import re
import time

from pydantic import BaseModel, ConfigDict, Field

from agent.blueprint.templates import Order, templates
from agent.bridge import BotConnection, BridgeError
from agent.checks.model import (All, Area, Check, ContainerHas, FeetYAtLeast, HasItem, NearBlock, NearPlayer, Not,
                                Outside, StandingOn, StandingOnGround, Within)
from agent.goals.understanding import SubGoal, Understanding
from agent.mc.gamedata import block_names
from agent.mc.geometry import Facing
from agent.mc.names import MAX_ITEM_COUNT, Item

# A player the goal is about reaches the bot's view a moment after its join (the server sends the
# players around once the bot has spawned: seconds on a loaded machine); read again until then.
PLAYER_APPEARS_S, PLAYER_POLL_S = 5.0, 0.25
# The box the kinds are read in: blocks from the feet, across and up or down.
RADIUS, HALF_HEIGHT = 16, 8
# A hole's columns span every height a world has (1.18+: y -64..319).
MIN_Y, MAX_Y = -64, 319
# A template's wooden blocks are written in this wood (oak_planks, oak_door); what is carried and
# the trees near say the wood of a build whose words name none, read from these blocks' names.
TEMPLATE_WOOD, WOOD_SOURCES = "oak", ("_planks", "_log")
# A word that could be a player's username, as written.
USERNAME = re.compile(r"\b\w{3,16}\b")


class Point(BaseModel):
    """A world position (blocks, float): x east, y up, z south."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    x: float
    y: float
    z: float


class Columns(BaseModel):
    """The world columns from one [x, z] corner to the other (inclusive)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    from_: tuple[int, int] = Field(alias="from")
    to: tuple[int, int]


class Sighted(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    distance: float = Field(description="blocks from the feet to the nearest one's centre")
    at: Point | None = Field(None, description="the nearest one's world cell (its lower corner)")


class Tree(BaseModel):
    """The tree of the nearest log of a kind: its logs joined to that one (bridge/helpers/grounds.js)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(description="the log kind: oak_log, birch_log, ...")
    logs: int = Field(ge=1, description="how many logs the tree has")
    at: Point = Field(description="the nearest of them (its world cell)")


class Stack(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    count: int = Field(ge=1)


class ChestSeen(BaseModel):
    """The nearest chest and what it holds, summed by item."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    at: Point = Field(description="its world cell")
    items: list[Stack] = Field(default_factory=list)


class Top(BaseModel):
    """The top of the structure of the nearest block of a kind: its highest block with room above."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    y: int = Field(description="the world y of that block (the feet stand at y + 1)")


class Grounds(BaseModel):
    """The world around the bot as the planner's choices see it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    feet: Point
    carried: dict[str, int] = Field(default_factory=dict, description="item name -> count, over every slot")
    players: list[str] = Field(default_factory=list, description="other players online")
    blocks: list[Sighted] = Field(default_factory=list, description="block kinds near the feet, nearest first")
    ground_y: float | None = Field(None, description="the feet's level on the ground around (the median top of "
                                                     "the columns 5 blocks off); None where none was read")
    hole: Columns | None = Field(None, description="the hole the feet are in, with its floor, steps and rim: "
                                                   "None where they stand at the ground's level")
    facing: Facing | None = Field(None, description="the way the bot looks, to the nearest of four")
    trees: list[Tree] = Field(default_factory=list, description="read when asked: the tree of the nearest log of "
                                                                "each kind seen")
    chest: ChestSeen | None = Field(None, description="read when asked: the nearest chest and its contents")
    tops: list[Top] = Field(default_factory=list, description="read when asked: the tops of the structures of "
                                                              "block kinds seen")

    @property
    def kinds(self) -> list[str]:
        return [b.name for b in self.blocks]

    def beside_hole(self) -> Point | None:
        """The ground just outside the hole the feet are in, nearest them: the centre of the first
        column past its edge, at the ground's level (feet). None out of a hole."""
        if self.hole is None or self.ground_y is None:
            return None
        (x0, z0), (x1, z1) = self.hole.from_, self.hole.to
        ring = [(x, z) for x in range(x0 - 1, x1 + 2) for z in range(z0 - 1, z1 + 2)
                if x in (x0 - 1, x1 + 1) or z in (z0 - 1, z1 + 1)]
        x, z = min(ring, key=lambda c: (c[0] + 0.5 - self.feet.x) ** 2 + (c[1] + 0.5 - self.feet.z) ** 2)
        return Point(x=x + 0.5, y=self.ground_y, z=z + 0.5)


def read_grounds(bot: BotConnection, goal: str = "", *, trees: bool = False, chest: bool = False,
                 tops: list[str] | None = None) -> Grounds | None:
    """The world now; None when it cannot be read (the bot is gone or dead). Words of `goal` that
    could be usernames are players when one of that name is in view (the tab list may not say).
    `trees`, `chest`, `tops`: read the nearest trees' logs, the nearest chest's contents and the
    tops of the structures of those block kinds too."""
    names = list(dict.fromkeys(USERNAME.findall(goal)))
    try:
        return Grounds.model_validate(bot.call("grounds", {"radius": RADIUS, "half_height": HALF_HEIGHT,
                                                           "names": names, "trees": trees, "chest": chest,
                                                           "tops": tops or []}))
    except BridgeError:
        return None


def read_grounds_for(bot: BotConnection, goal: str, understanding: Understanding) -> Grounds | None:
    """The world at a run's start, with the trees and the chest its sub-goals count on, read again
    for up to PLAYER_APPEARS_S while a sub-goal about a player finds none in view to ground it."""
    deadline = time.monotonic() + PLAYER_APPEARS_S
    subgoals = understanding.subgoals
    asked = {"trees": any(s.count_of == "tree" for s in subgoals),
             "chest": any(s.contents or s.at_nearest or s.count_of == "chest" for s in subgoals),
             "tops": sorted({n for s in subgoals if s.on_top and isinstance(s.check, StandingOn)
                             for n in s.kinds or [s.check.standing_on.block]})}
    grounds = read_grounds(bot, goal, **asked)
    while grounds is not None and awaits_player(understanding, grounds) and time.monotonic() < deadline:
        time.sleep(PLAYER_POLL_S)
        grounds = read_grounds(bot, goal, **asked)
    return grounds


def awaits_player(understanding: Understanding, grounds: Grounds) -> bool:
    """Whether a sub-goal about a player finds no player in view to ground it."""
    return any(s.players and isinstance(s.check, NearPlayer) and _grounded(s, grounds) is None
               for s in understanding.subgoals)


def ground(understanding: Understanding, grounds: Grounds) -> Understanding:
    """Every sub-goal made absolute: places from the start (the feet now), "out of the hole" as
    standing at the ground's level around, a kind's name as the one carried, else the nearest
    seen, else its first; a player "him" means as one online the goal names, else the one
    online; a structure ahead of where the bot looks, or around the nearest thing it goes around.
    A sub-goal the world cannot ground (no player, no ground read, no such thing seen) is left out."""
    subgoals = [_grounded(s, grounds) for s in understanding.subgoals]
    return understanding.model_copy(update={"subgoals": [s for s in subgoals if s is not None]})


def _grounded(subgoal: SubGoal, grounds: Grounds) -> SubGoal | None:
    check: Check | None = subgoal.check
    for step in (_player, _on_ground, _from_start, _kind, _counted, _chest, _top, _building):
        check = step(subgoal, check, grounds) if check is not None else None
    if check is None:
        return None
    return subgoal.model_copy(update={"check": check, "from_start": False, "kinds": [], "players": [],
                                      "on_ground": False, "building": None, "count_of": None, "counted": None, "at_nearest": False,
                                      "on_top": False,
                                      "contents": False, "above_ground": False})


def _player(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check | None:
    """A player "him" means: one online the goal names, else the one online."""
    if not (subgoal.players and isinstance(check, NearPlayer)):
        return check
    named = [p for p in grounds.players if p.lower() in {w.lower() for w in subgoal.players}]
    who = named or (grounds.players if len(grounds.players) == 1 else [])
    return NearPlayer(near_player=check.near_player.model_copy(update={"name": who[0]})) if who else None


def _on_ground(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check | None:
    """Out of the hole: at the ground's level around, and out of the hole's columns; a height
    above the ground around."""
    if subgoal.above_ground and isinstance(check, FeetYAtLeast):
        return None if grounds.ground_y is None else FeetYAtLeast(feet_y_at_least=grounds.ground_y +
                                                                  check.feet_y_at_least)
    if not subgoal.on_ground:
        return check
    if grounds.ground_y is None:
        return None
    return All(all=[FeetYAtLeast(feet_y_at_least=grounds.ground_y), StandingOnGround(standing_on_ground=True),
                    *_outside(grounds.hole)])


def _from_start(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check:
    start = grounds.feet
    if subgoal.from_start and isinstance(check, Within):
        s = check.within
        return Within(within=s.model_copy(update={"x": start.x + s.x, "y": start.y + s.y, "z": start.z + s.z}))
    if subgoal.from_start and isinstance(check, FeetYAtLeast):
        return FeetYAtLeast(feet_y_at_least=start.y + check.feet_y_at_least)
    return check


def _kind(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check:
    """A kind's member: that of the nearest tree where the tree is counted, else pick_kind's."""
    if not subgoal.kinds:
        return check
    tree = _tree(subgoal, check, grounds) if subgoal.count_of == "tree" else None
    return _named(check, tree.name if tree is not None else pick_kind(subgoal.kinds, grounds))


def _tree(subgoal: SubGoal, check: Check, grounds: Grounds) -> Tree | None:
    kinds = set(subgoal.kinds) or ({check.has_item.name} if isinstance(check, HasItem) else set())
    feet = grounds.feet
    trees = [t for t in grounds.trees if t.name in kinds]
    return min(trees, key=lambda t: (t.at.x - feet.x) ** 2 + (t.at.y - feet.y) ** 2 + (t.at.z - feet.z) ** 2,
               default=None)


def _counted(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check | None:
    """A count the world gives: the logs of the nearest tree of the kind (and those carried), all
    carried, or what is left carrying after a give (Understanding's CountOf)."""
    if subgoal.count_of == "tree" and isinstance(check, HasItem):
        tree = _tree(subgoal, check, grounds)
        if tree is None:
            return None
        return _counting(check, grounds.carried.get(tree.name, 0) + tree.logs)
    if subgoal.count_of in ("carried", "held"):
        held = grounds.carried.get(subgoal.counted or _name_of(check), 0)
        return _counting(check, held) if held else (_counting(check, 1) if subgoal.count_of == "held" else None)
    if subgoal.count_of == "chest":
        name = _name_of(check)
        stored = sum(s.count for s in grounds.chest.items if s.name == name) if grounds.chest is not None else 0
        return _counting(check, grounds.carried.get(name, 0) + stored) if stored else None
    if subgoal.count_of == "given" and isinstance(check, Not) and isinstance(check.not_, HasItem):
        gives = next(iter(subgoal.given.values()), {}).get("count", 1)
        left = max(grounds.carried.get(check.not_.has_item.name, 0), gives) - gives + 1
        return Not(**{"not": _counting(check.not_, left)})
    return check


def _chest(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check | None:
    """The nearest chest: its cell in a container_has, or everything it holds taken."""
    chest = grounds.chest
    if subgoal.contents:
        if chest is None or not chest.items:
            return None
        held = [HasItem(has_item=Item(name=s.name, count=min(grounds.carried.get(s.name, 0) + s.count,
                                                             MAX_ITEM_COUNT))) for s in chest.items]
        return held[0] if len(held) == 1 else All(all=held)
    if subgoal.at_nearest and isinstance(check, ContainerHas) and chest is not None:
        cell = (math.floor(chest.at.x), math.floor(chest.at.y), math.floor(chest.at.z))
        return ContainerHas(container_has=check.container_has.model_copy(update={"at": cell}))
    return check


def _top(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check:
    """On top of the structure, not on its step: standing on the block with the feet at its top's
    height ("climb up onto the stone platform"); as read where the world gives no top."""
    if not (subgoal.on_top and isinstance(check, StandingOn)):
        return check
    top = next((t for t in grounds.tops if t.name == check.standing_on.block), None)
    return check if top is None else All(all=[check, FeetYAtLeast(feet_y_at_least=float(top.y + 1))])


def _building(subgoal: SubGoal, check: Check, grounds: Grounds) -> Check | None:
    return check if subgoal.building is None else _placed(of_the_wood_here(subgoal.building, grounds), grounds)


def _name_of(check: Check) -> str:
    if isinstance(check, HasItem):
        return check.has_item.name
    if isinstance(check, ContainerHas):
        return check.container_has.name
    return ""


def _counting(check: Check, count: int) -> Check:
    """The check with its count set (has_item, container_has)."""
    count = max(1, min(count, MAX_ITEM_COUNT))
    if isinstance(check, HasItem):
        return HasItem(has_item=check.has_item.model_copy(update={"count": count}))
    if isinstance(check, ContainerHas):
        return ContainerHas(container_has=check.container_has.model_copy(update={"count": count}))
    return check


def _placed(order: Order, grounds: Grounds) -> Check | None:
    """A structure's check where it goes: ahead of the feet block the way the bot looks, or around
    the nearest block of the kind it goes around; None when the world does not say where."""
    feet = (math.floor(grounds.feet.x), math.floor(grounds.feet.y), math.floor(grounds.feet.z))
    if order.around is None:
        return None if grounds.facing is None else order.check(feet, grounds.facing)
    thing = next((b.at for b in grounds.blocks if b.name == order.around and b.at is not None), None)
    if thing is None:
        return None
    return order.check(feet, "south", thing=(math.floor(thing.x), math.floor(thing.y), math.floor(thing.z)))


def of_the_wood_here(order: Order, grounds: Grounds) -> Order:
    """The order with the template's wooden blocks the words left to it (an oak house's planks and
    door) of the wood carried, else of the nearest trees: a birch house in a birch forest, whose
    trees give its planks. As written where neither says a wood, or the wood has no such block."""
    names = [*grounds.carried, *grounds.kinds]
    wood = next((n.removesuffix(end) for n in names for end in WOOD_SOURCES if n.endswith(end)), TEMPLATE_WOOD)
    oak = f"{TEMPLATE_WOOD}_"
    chosen = {key: f"{wood}_{default.removeprefix(oak)}" for key, p in templates()[order.template].params.items()
              if isinstance(default := p.default, str) and default.startswith(oak) and key not in order.values}
    chosen = {key: block for key, block in chosen.items() if block in block_names()}
    return order.model_copy(update={"values": {**order.values, **chosen}})


def _outside(hole: Columns | None) -> list[Outside]:
    """Out of the hole: the feet outside its columns, at any height (none: not in a hole)."""
    if hole is None:
        return []
    (x0, z0), (x1, z1) = hole.from_, hole.to
    return [Outside(outside=Area.model_validate({"from": (x0, MIN_Y, z0), "to": (x1, MAX_Y, z1)}))]


def pick_kind(kinds: list[str], grounds: Grounds) -> str:
    """The member of a kind to pursue: one carried, else the nearest seen, else the first."""
    carried = [k for k in kinds if grounds.carried.get(k)]
    seen = [k for k in grounds.kinds if k in kinds]
    return (carried or seen or kinds)[0]


def _named(check, name: str):
    """The check with its thing's name replaced (has_item, container_has, near_block)."""
    if isinstance(check, HasItem):
        return HasItem(has_item=check.has_item.model_copy(update={"name": name}))
    if isinstance(check, ContainerHas):
        return ContainerHas(container_has=check.container_has.model_copy(update={"name": name}))
    if isinstance(check, NearBlock):
        return NearBlock(near_block=check.near_block.model_copy(update={"block": name}))
    if isinstance(check, StandingOn):
        return StandingOn(standing_on=check.standing_on.model_copy(update={"block": name}))
    return check
