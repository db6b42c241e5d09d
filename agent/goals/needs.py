"""What a failed step lacked, as the sub-goals to reach before it: mc-craft refused a pickaxe for
want of planks, mc-collect refused stone for want of a pickaxe. A preconditions-and-effects
planner would chain these; here the world says them after the fact, in the failed report's
`missing` (a make report's ingredients, how many more of each, beside what it carried; a
collecting's cheapest tool), and the focus (agent/planner/focus.py) works on them first.

What is lacked is counted with what making it costs: a build short of 55 planks and a door
needs 65 planks, for the door's 6 and a crafting table's 4 (when none is carried or near), or
the door made from the planks leaves the house short again; the planks are then asked first.

A need is bounded: at most MAX_DEPTH deep (a need of a need of a need), MAX_NEEDS in a run,
and given up after NEED_STEPS outer steps on it, so a world that cannot give the thing does not
hold the plan at it. A thing of a kind (planks, logs) is named as the member the world supports:
the one carried, seen, or made from what is carried or seen (spruce planks by a spruce tree),
not the first a recipe lists.

In a team, what a teammate carries is asked of them rather than got (asking.py, which also
says who of two asks whom).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection
from graphlib import CycleError, TopologicalSorter
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from agent.checks.model import Check, HasItem
from agent.chat.team import Holdings
from agent.goals.asking import teamwork
from agent.goals.understanding import SubGoal
from agent.mc.gamedata import item_names, recipes
from agent.mc.names import Item

MAX_DEPTH = 3
MAX_NEEDS = 8
NEED_STEPS = 3
TABLE = "crafting_table"
# Recipe trees down to another item lacked are shallow (a fence: sticks, then planks).
MAX_RECIPE_DEPTH = 4
# Kinds whose members stand in for each other as materials (a table of any planks), by the end of
# their names, as the game's item tags (#logs, #planks) group them.
MATERIAL_KINDS = ("_log", "_planks", "_wool", "_sapling")


class _Lacking(BaseModel):
    """The part of a failed report that says what it lacked: items, how many more than it
    carried (`missing` of a make or a collecting; `short` of a build, by name), and what it
    carried of them (`inventory`, when the report says; none carried otherwise)."""

    model_config = ConfigDict(extra="ignore")
    missing: list[Item] = []
    short: dict[str, int] = {}
    inventory: list[Item] = []

    @field_validator("missing", mode="before")
    @classmethod
    def _items_only(cls, value: Any) -> Any:
        # mc-build's `missing` are the cells it left, not items: what it lacked is its `short`
        return value if isinstance(value, list) and all(isinstance(v, dict) and "name" in v for v in value) else []

    def items(self) -> list[Item]:
        return self.missing + [Item(name=name, count=n) for name, n in self.short.items()]


def lacked(data: Any, at_hand: Collection[str] = ()) -> list[Item]:
    """The items a failed step's report says the bot must carry for the step to work, as totals
    (what it carried plus what it lacked, plus what making the others lacked takes of it: `costed`,
    a crafting table's share unless `at_hand` names one), those others are made of first; none
    when the report names no item it lacked (mc-find's missing kinds and mc-build's unbuilt cells
    are not items)."""
    try:
        lacking = _Lacking.model_validate(data)
    except ValidationError:
        return []
    held = {item.name: item.count for item in lacking.inventory}
    short: Counter[str] = Counter()
    for item in lacking.items():
        short[item.name] += item.count
    need = costed(dict(short), {*at_hand, *held})
    return [Item(name=name, count=need[name] + held.get(name, 0)) for name in made_of_first(need)]


def costed(short: dict[str, int], at_hand: Collection[str] = (), mc_version: str | None = None) -> dict[str, int]:
    """`short` (items and how many are lacked), each of them counted with what making the others
    takes of it (a door: 6 planks; a fence: planks, and the planks its sticks are made of), and a
    crafting table's when a recipe on the way needs one and `at_hand` (carried or seen) has none.
    Unchanged when the items are made of each other both ways (no order makes them)."""
    need = Counter(short)
    table = False
    for name, count in short.items():
        uses, needs_table = _making(name, count, set(short), frozenset({name}), mc_version)
        need.update(uses)
        table = table or needs_table
    if table and TABLE not in at_hand and TABLE not in short:
        need.update(_making(TABLE, 1, set(short), frozenset({TABLE}), mc_version)[0])
    return dict(need) if _order(dict(need), mc_version) is not None else dict(short)


def made_of_first(need: dict[str, int], mc_version: str | None = None) -> list[str]:
    """The items of `need`, each after those of them its making takes (planks before the door)."""
    return _order(need, mc_version) or list(need)


def _order(need: dict[str, int], mc_version: str | None) -> list[str] | None:
    """`need`'s items, what others are made of first; None when two are made of each other."""
    graph = {name: set(_making(name, 1, set(need), frozenset({name}), mc_version)[0]) for name in need}
    try:
        ordered = list(TopologicalSorter(graph).static_order())
    except CycleError:
        return None
    return sorted(need, key=ordered.index)


def _making(item: str, count: int, listed: set[str], visiting: frozenset[str],
            mc_version: str | None) -> tuple[Counter[str], bool]:
    """What making `count` of `item` takes of the `listed` items, down its recipe tree to them (the
    recipe using most of them), and whether a recipe on the way to them, or its own, needs a
    crafting table."""
    ways = recipes(mc_version).get(item, ())
    if not ways or len(visiting) > MAX_RECIPE_DEPTH:
        return Counter(), False
    way = max(ways, key=lambda r: len(set(r.ingredients) & listed))
    crafts = math.ceil(count / way.makes)
    uses: Counter[str] = Counter()
    table = way.needs_table
    for ingredient, per_craft in way.ingredients.items():
        if ingredient in listed:
            uses[ingredient] += per_craft * crafts
        elif ingredient not in visiting:
            # an ingredient made of none of them (coal, found rather than made) costs nothing here
            more, needs_table = _making(ingredient, per_craft * crafts, listed, visiting | {ingredient}, mc_version)
            uses.update(more)
            table = table or (needs_table and bool(more))
    return uses, table


def exactly(data: Any) -> bool:
    """Whether what a report lacked is named exactly: a build's `short` is the very block its
    cells hold (oak planks for an oak house), where a recipe's `missing` takes any member of a
    kind (planks), which `supported` names after what the world has."""
    return isinstance(data, dict) and bool(data.get("short"))


def needed(items: list[Item], tool: str, depth: int, team: Holdings | None = None,
           towards: Check | None = None) -> list[SubGoal]:
    """The sub-goals of carrying `items`, which `tool` lacked for a step towards the check
    `towards`, `depth` needs deep; used up by the step that needed them, so they do not last to
    the end. Where a teammate of `team` carries some, the team's way (asking.py: ask, give or
    wait, by its rule)."""
    out = []
    for item in items:
        together = teamwork(item, team, towards, tool, depth) if team is not None and towards is not None else None
        out.append(together or SubGoal(says=f"get {item.count} {item.name} ({tool} needs it)",
                                       check=HasItem(has_item=item), by="need", depth=depth, lasting=False))
    return out


def supported(item: Item, carried: list[str], seen: list[str], mc_version: str | None = None) -> Item:
    """`item`, or the member of its kind (MATERIAL_KINDS) the world supports:
    one carried, else one seen, else one a recipe makes from what is carried or seen; else as named."""
    suffix = next((s for s in MATERIAL_KINDS if item.name.endswith(s)), None)
    if suffix is None:
        return item
    members = sorted(n for n in item_names(mc_version) if n.endswith(suffix))
    around = set(carried) | set(seen)
    made = [m for m in members if any(set(way.ingredients) <= around for way in recipes(mc_version).get(m, ())
                                      if way.ingredients)]
    chosen = next(iter([m for m in carried if m in members] + [m for m in seen if m in members] + made), item.name)
    return item.model_copy(update={"name": chosen})
