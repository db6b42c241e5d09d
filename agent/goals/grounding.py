"""Grounding a goal's sub-goals in the world at the start (the read of grounds.py): places from the
start made absolute, a kind's member picked, counts the words leave to the world counted (the
nearest tree's logs, all carried, all a chest holds), the nearest chest's cell, the top of a
structure climbed onto, the player "him" means, and a structure placed where it goes. A sub-goal
the world cannot ground (no player, no ground read, no such thing seen) is left out.
"""

from __future__ import annotations

import math

from agent.blueprint.templates import Order, templates
from agent.checks.model import (All, Area, Check, ContainerHas, FeetYAtLeast, HasItem, NearBlock, NearPlayer, Not,
                                Outside, StandingOn, StandingOnGround, Within)
from agent.goals.grounds import Columns, Grounds, Tree, player_meant
from agent.goals.understanding import SubGoal, Understanding
from agent.mc.gamedata import block_names
from agent.mc.names import MAX_ITEM_COUNT, Item

# A hole's columns span every height a world has (1.18+: y -64..319).
MIN_Y, MAX_Y = -64, 319
# A template's wooden blocks are written in this wood (oak_planks, oak_door); what is carried and
# the trees near say the wood of a build whose words name none, read from these blocks' names.
TEMPLATE_WOOD, WOOD_SOURCES = "oak", ("_planks", "_log")


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
    who = player_meant(subgoal, grounds)
    return NearPlayer(near_player=check.near_player.model_copy(update={"name": who})) if who else None


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

