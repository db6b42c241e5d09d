"""Arguments the run's goal check already states, so the model is not asked to write them: the
check says what the world must hold (has_item oak_log 3), and the tool that gets it takes those
very words (mc-collect {"block": "oak_log", "count": 3}). The model still chooses the tool; a
small one asked to spell `oak_log` under a grammar writes `M-12-12-…`. Nothing here says where
anything is: near_block gives the block's name, never its place (standing_on the same, with
on_top), and mc-chest goes to the nearest chest itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent.blueprint.model import materials
from agent.checks.model import Blueprint, Check, ContainerHas, HasItem, NearBlock, NearPlayer, StandingOn, Within
from agent.goals.builds import parts_of
from agent.mc.gamedata import dropped_by, recipes, smelting
from agent.tools import Toolbox


MAX_COLLECT = 16  # mc-collect's bound on one call


def made_with(given: Mapping[str, Any], args: Mapping[str, Any] | None) -> bool:
    """Whether a call with `args` was made with the `given` arguments (the rest the model's)."""
    return all((args or {}).get(k) == v for k, v in given.items())


def given_args(check: Check | None, toolbox: Toolbox) -> dict[str, dict[str, Any]]:
    """{tool: arguments} for the tools whose arguments the check's parts state, among `toolbox`'s."""
    given: dict[str, dict[str, Any]] = {}
    for part in parts_of(check):
        if isinstance(part, HasItem):
            item, count = part.has_item.name, part.has_item.count
            if dug(item):  # more than one collecting digs: the sub-goal, still short, asks again
                given["mc-collect"] = {"block": item, "count": min(count, MAX_COLLECT)}
            given["mc-chest"] = {"action": "withdraw", "item": item, "count": count}
            if made(item):  # what no recipe or furnace makes, no tool that makes things is given
                given["craft"] = {"item": item, "count": count}
            if item in recipes():
                given["mc-craft"] = {"item": item, "count": count}
            if item in smelting().recipes.values():  # all at once: a coal smelts eight, one a call burns one each
                given["mc-smelt"] = {"item": item, "count": count}
        elif isinstance(part, ContainerHas):
            given["mc-chest"] = {"action": "deposit", "item": part.container_has.name, "count": part.container_has.count}
        elif isinstance(part, NearBlock):
            given["mc-approach"] = {"block": part.near_block.block}
        elif isinstance(part, StandingOn):  # on the block, not beside it
            given["mc-approach"] = {"block": part.standing_on.block, "on_top": True}
        elif isinstance(part, Within):
            given["mc-goto"] = {"x": part.within.x, "y": part.within.y, "z": part.within.z}
        elif isinstance(part, NearPlayer):
            given["mc-follow"] = {"player": part.near_player.name}
        elif isinstance(part, Blueprint):
            plan = part.blueprint
            given["mc-build"] = {"anchor": list(plan.anchor),
                                 "blocks": [{"at": list(p.at), "block": p.block} for p in plan.blocks]}
    return {tool: args for tool, args in given.items() if tool in toolbox.tools}


def dug(item: str) -> bool:
    """Whether digging a block the world has without anyone making it gives `item` (cobblestone,
    from stone); bread, planks or a crafting table are made (a plank block is there only when
    someone built with it), and no dig gives stone."""
    return any(not made(block) for block in dropped_by().get(item, ()))


def made(item: str) -> bool:
    """Whether a recipe or a furnace makes `item` (the craft skill's ways to get one)."""
    return item in recipes() or item in smelting().recipes.values()


def supporting_args(check: Check | None, toolbox: Toolbox) -> dict[str, dict[str, Any]]:
    """{tool: arguments} for tools that serve a step towards what the check asks, not the ask
    itself: for mc-collect, the most needed item of a blueprint's bill of materials that digging
    gives (dirt, cobblestone; not planks or concrete, which are made or brought), when blocks run
    short (the build method); mc-collect keeps the blueprint's own cells itself, whoever calls it
    (agent/goals/builds.py). The outer loop does not rank these first; it and the methods still
    fill them in."""
    given: dict[str, dict[str, Any]] = {}
    for part in parts_of(check):
        dug_here = [(item, n) for item, n in materials(part.blueprint.blocks).items() if dug(item)] \
            if isinstance(part, Blueprint) else []
        if dug_here and "mc-collect" not in given:
            kind, count = dug_here[0]
            given["mc-collect"] = {"block": kind, "count": min(count, MAX_COLLECT)}
    return {tool: args for tool, args in given.items() if tool in toolbox.tools}

