"""How to get N of an item from what the inventory holds and what is near: a walk down the recipe
tree (gamedata's recipes, drops, harvest tools and smelting table) into steps for mc-collect,
mc-craft and mc-smelt, ingredients before what they make.

Each missing item is got the cheapest way that works: dug from a block known to be near, else
crafted (the recipe variant that works, what the inventory holds first), else smelted, else dug
from a block not seen yet (mc-collect looks for it). Where a plan needs a block not seen, each
part the near blocks can give still comes from them (spruce planks where spruce grows). A block that needs a tool to drop anything
(stone, ores) gets the lowest tier of that tool first; a recipe wider than 2x2 a crafting table,
a smelt a furnace and fuel, each made when none is near. Tools are kept, tables and furnaces set
down once. What cannot be got is named in `unobtainable`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from agent.mc import gamedata

# Tool tiers, cheapest first: a block needing a pickaxe gets a wooden one before a stone one.
TIERS = ("wooden", "golden", "stone", "iron", "diamond", "netherite")
# Fuels tried for a smelt, best first: coal (burns 8 items), planks or logs carried (1.5), planks
# of a log near (_fuel), then charcoal (a log smelted first) and oak planks made. Each is tried from
# what is near before any is looked for.
FUELS = ("coal", "charcoal", "oak_planks")
# Recipe trees are shallow (a diamond pickaxe from nothing is 10 deep, tools included).
MAX_DEPTH = 14
# Items needed, tried, in one search before it gives up. A plan takes a few thousand at most (a
# bed from logs: 6,600); wools and dyes make each other, so a search with no way (a white banner
# from 4 of the 6 wool it takes) would walk every order of the 16 colours: millions, minutes.
MAX_TRIES = 50_000
TABLE, FURNACE = "crafting_table", "furnace"


class Step(BaseModel):
    action: Literal["collect", "craft", "smelt"]
    item: str = Field(description="what to dig up (mc-collect's block: the item or its block), make or smelt into")
    count: int = Field(ge=1)


class CraftingPlan(BaseModel):
    steps: list[Step]
    unobtainable: list[str] = Field(description="items no way was found to get, each with why")


@dataclass
class _State:
    inventory: dict[str, int]
    near: frozenset[str]
    lenient: bool  # dig blocks not seen near too
    stations: set[str] = field(default_factory=set)
    steps: list[Step] = field(default_factory=list)

    def copy(self) -> _State:
        return _State(dict(self.inventory), self.near, self.lenient, set(self.stations), list(self.steps))

    def adopt(self, trial: _State) -> None:
        """Take a trial copy's outcome: a way is tried on a copy, and kept only if it works."""
        self.inventory, self.stations, self.steps = trial.inventory, trial.stations, trial.steps


class _NoWay(Exception):
    pass


def plan(item: str, count: int, inventory: dict[str, int], near: set[str] | frozenset[str],
         mc_version: str | None = None) -> CraftingPlan:
    """Steps that bring the inventory to `count` of `item`; `near` names the blocks known near
    (a crafting table or a furnace among them is used, not made)."""
    start = _start(inventory, near)
    for lenient in (False, True):
        state = start.copy()
        state.lenient = lenient
        try:
            _Planner(mc_version).need(state, item, count, depth=0, visiting=frozenset())
            return CraftingPlan(steps=_merged(_hoisted(state.steps)), unobtainable=[])
        except _NoWay as e:
            why = str(e)
    return CraftingPlan(steps=[], unobtainable=[why])


def used_up(item: str, count: int, inventory: dict[str, int], near: set[str] | frozenset[str],
            mc_version: str | None = None) -> dict[str, int] | None:
    """What of `inventory` a plan for `count` of `item` uses up, when it digs nothing (crafts and
    smelts from what is held, down the whole recipe tree); None when it must dig or finds no way."""
    state = _start(inventory, near)
    try:
        _Planner(mc_version).need(state, item, count, depth=0, visiting=frozenset())
    except _NoWay:
        return None
    if any(step.action == "collect" for step in state.steps):
        return None
    return {name: n - state.inventory.get(name, 0) for name, n in inventory.items() if n > state.inventory.get(name, 0)}


def _start(inventory: dict[str, int], near: set[str] | frozenset[str]) -> _State:
    """A search's first state: what is held, and the stations near used where they stand."""
    return _State(dict(inventory), frozenset(near), lenient=False, stations={s for s in (TABLE, FURNACE) if s in near})


class _Planner:
    def __init__(self, mc_version: str | None) -> None:
        self.recipes = gamedata.recipes(mc_version)
        self.dropped_by = gamedata.dropped_by(mc_version)
        self.tools = gamedata.harvest_tools(mc_version)
        self.smelting = gamedata.smelting()
        self.items = gamedata.item_names(mc_version)
        self.tries = 0
        # Needs that found no way, by the state they met: (barred, depth, why) for each. A need
        # that failed fails again from the same state with at least those items barred and no
        # more depth left, so it is not searched again (the wools' and dyes' circles meet the
        # same needs in many orders).
        self.failed: dict[tuple[object, ...], list[tuple[frozenset[str], int, str]]] = {}

    def need(self, s: _State, item: str, count: int, depth: int, visiting: frozenset[str]) -> None:
        """Reserves `count` of `item` in s.inventory, adding the steps that make up what it lacks."""
        have = s.inventory.get(item, 0)
        s.inventory[item] = max(0, have - count)
        missing = count - have
        if missing <= 0:
            return
        if depth > MAX_DEPTH or item in visiting:
            raise _NoWay(f"{item}: no way found (its recipes go round in a circle)")
        met = (item, missing, tuple(sorted((k, n) for k, n in s.inventory.items() if n > 0)),
               tuple(sorted(s.stations)), s.lenient)
        for barred, at, why in self.failed.get(met, ()):
            if barred <= visiting and at <= depth:
                raise _NoWay(why)
        self.tries += 1
        if self.tries > MAX_TRIES:
            raise _NoWay(f"{item}: no way found in {MAX_TRIES:,} tries (wools and dyes make each other)")
        if s.lenient and self._from_near(s, item, missing, depth, visiting):
            return
        visiting = visiting | {item}
        # What a recipe or a furnace makes is made before it is picked from blocks near: sticks
        # from planks, not from the desert's dead bushes, which drop none as often as some.
        ways = [*(lambda t, r=r: self._craft(t, item, missing, r, depth, visiting) for r in self._ranked(s, item)),
                *(lambda t, i=i: self._smelt(t, item, missing, i, depth, visiting) for i in self.smelting.inputs_for(item)),
                lambda t: self._collect(t, item, missing, depth, visiting, near_only=True),
                lambda t: self._collect(t, item, missing, depth, visiting, near_only=False)]
        for way in ways:
            trial = s.copy()
            try:
                way(trial)
            except _NoWay:
                continue
            s.adopt(trial)
            return
        why = f"{item}: no block near drops it, and no recipe or furnace makes it from what can be got"
        self.failed.setdefault(met, []).append((visiting - {item}, depth, why))
        raise _NoWay(why)

    def _from_near(self, s: _State, item: str, missing: int, depth: int, visiting: frozenset[str]) -> bool:
        """Whether `missing` of `item` can be got from blocks known near alone, and if so that way
        is taken: where the whole plan needs a block not seen (stone under the grass), each part
        that the near blocks can give still comes from them (the spruce by the bot, not an oak
        that may not grow here)."""
        trial = s.copy()  # what is carried of `item` is reserved already: `missing` is the rest
        trial.lenient = False
        try:
            self.need(trial, item, missing, depth, visiting)
        except _NoWay:
            return False
        s.adopt(trial)
        return True

    def _ranked(self, s: _State, item: str) -> list[gamedata.Recipe]:
        """The item's recipes, those whose ingredients the inventory holds most of first."""
        def held(r: gamedata.Recipe) -> int:
            return sum(min(s.inventory.get(n, 0), k) for n, k in r.ingredients.items())
        return sorted(self.recipes.get(item, ()), key=held, reverse=True)

    def _collect(self, s: _State, item: str, missing: int, depth: int, visiting: frozenset[str], near_only: bool) -> None:
        blocks = sorted(self.dropped_by.get(item, ()))
        near = [b for b in blocks if b in s.near]
        # Unseen, only what the world is made of (logs, stone, ore), never a block crafted (planks, iron_block).
        blocks = [b for b in blocks if b not in self.recipes]
        if not (near if near_only else blocks and s.lenient):
            raise _NoWay(item)
        block = (near or blocks)[0]
        self._tool_for(s, block, depth, visiting)
        s.steps.append(Step(action="collect", item=item, count=missing))

    def _tool_for(self, s: _State, block: str, depth: int, visiting: frozenset[str]) -> None:
        tools = self.tools.get(block, frozenset())
        if not tools or any(s.inventory.get(t, 0) > 0 for t in tools):
            return
        for tool in sorted(tools, key=_tier):
            trial = s.copy()
            try:
                self.need(trial, tool, 1, depth + 1, visiting)
            except _NoWay:
                continue
            trial.inventory[tool] = trial.inventory.get(tool, 0) + 1  # a tool is kept, not spent
            s.adopt(trial)
            return
        raise _NoWay(f"{block} needs one of {', '.join(sorted(tools))} to drop anything")

    def _craft(self, s: _State, item: str, missing: int, recipe: gamedata.Recipe, depth: int, visiting: frozenset[str]) -> None:
        crafts = math.ceil(missing / recipe.makes)
        for ingredient, per_craft in recipe.ingredients.items():
            self.need(s, ingredient, per_craft * crafts, depth + 1, visiting)
        if recipe.needs_table:
            self._station(s, TABLE, depth, visiting)
        # The count a step asks is what its crafts make: two steps merged then make what both did.
        s.steps.append(Step(action="craft", item=item, count=crafts * recipe.makes))
        s.inventory[item] = s.inventory.get(item, 0) + crafts * recipe.makes - missing

    def _smelt(self, s: _State, item: str, missing: int, source: str, depth: int, visiting: frozenset[str]) -> None:
        if source not in self.items:
            raise _NoWay(source)
        self.need(s, source, missing, depth + 1, visiting)
        self._fuel(s, missing, depth, visiting)
        self._station(s, FURNACE, depth, visiting)
        s.steps.append(Step(action="smelt", item=item, count=missing))

    def _fuel(self, s: _State, smelts: int, depth: int, visiting: frozenset[str]) -> None:
        """The best fuel that can be got, from what is carried or near before what must be looked
        for (planks of the spruce by the bot before coal not seen)."""
        held = [n for n, k in s.inventory.items() if k > 0 and n.endswith(("_planks", "_log"))]
        planks = [f"{b.removesuffix('_log')}_planks" for b in sorted(s.near) if b.endswith("_log")]
        fuels = [f for f in dict.fromkeys([FUELS[0], *held, *planks, *FUELS[1:]]) if f in self.items]
        for lenient in sorted({False, s.lenient}):
            for fuel in fuels:
                trial = s.copy()
                trial.lenient = lenient
                try:
                    self.need(trial, fuel, math.ceil(smelts * self.smelting.smelt_ticks / self.smelting.fuel(fuel)),
                              depth + 1, visiting)
                except _NoWay:
                    continue
                s.adopt(trial)
                return
        raise _NoWay("no fuel can be got")

    def _station(self, s: _State, station: str, depth: int, visiting: frozenset[str]) -> None:
        if station in s.stations:
            return
        self.need(s, station, 1, depth + 1, visiting)
        s.stations.add(station)  # set down once, used from then on


def _tier(tool: str) -> int:
    return next((i for i, t in enumerate(TIERS) if tool.startswith(t)), len(TIERS))


def _hoisted(steps: list[Step]) -> list[Step]:
    """Every collect of an item added to its first: what that one needed (a tool) it had, and
    carrying more earlier harms no step; one walk for all the logs instead of one per craft."""
    totals: dict[str, int] = {}
    for step in steps:
        if step.action == "collect":
            totals[step.item] = totals.get(step.item, 0) + step.count
    out: list[Step] = []
    for step in steps:
        if step.action != "collect":
            out.append(step)
        elif step.item in totals:
            out.append(Step(action="collect", item=step.item, count=totals.pop(step.item)))
    return out


def _merged(steps: list[Step]) -> list[Step]:
    """Consecutive steps of the same action on the same item as one."""
    out: list[Step] = []
    for step in steps:
        if out and (out[-1].action, out[-1].item) == (step.action, step.item):
            out[-1] = Step(action=step.action, item=step.item, count=out[-1].count + step.count)
        else:
            out.append(step)
    return out
