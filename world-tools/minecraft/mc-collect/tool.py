import math
from functools import partial
from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.checks.model import MAX_BLUEPRINT_CELLS
from agent.goals.builds import Cell, kept
from agent.mc.gamedata import dropped_by
from agent.mc.names import BlockName, Item
from agent.world.digging import DigRun
from agent.world.toolkit import (COUNTS, RADII, ToolArgs, WorldCell, menu, run_tool, stopped_unless_completed,
                                 unbounded_in_schema)

# The arguments' bounds (here only: collect.js takes the values as checked); `avoid` holds a
# whole blueprint's cells.
MAX_COUNT, MAX_RADIUS, MAX_TIMEOUT_S, MAX_AVOID = 16, 32, 300, MAX_BLUEPRINT_CELLS
# How far past the radius a collecting reaches: a block dug on a way to one at the radius's edge,
# a pillar's block beside it. A build's cells further away are out of its reach, and collect.js
# digs and builds its way (buried blocks, a trunk's top) only while no cell to keep is near.
BEYOND_RADIUS = 6


class Args(ToolArgs):
    block: BlockName = Field(description="the block or the item wanted, e.g. oak_log, cobblestone (dug from stone), sand",
                            json_schema_extra={"domain": "block_seen"})
    count: int = Field(1, ge=1, le=MAX_COUNT, description="blocks to dig", json_schema_extra=COUNTS)
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet to look in", json_schema_extra=RADII)
    timeout_s: float = Field(60, ge=1, le=MAX_TIMEOUT_S, description="seconds for the whole collecting",
                           json_schema_extra=menu(60, 120))
    avoid: list[WorldCell] = Field([], max_length=MAX_AVOID, json_schema_extra=unbounded_in_schema,
                                   description="world cells [x, y, z] never to dig, such as a build's own blocks")



CollectStop = Literal["completed", "needs_tool", "not_found", "unreachable", "fluid_ahead", "drop_ahead", "unbreakable",
                      "blocked", "fell", "timeout", "stopped", "disconnected"]


class Result(DigRun):
    """mc-collect's result (bridge/helpers/collect.js): blocks of a kind walked to, dug and picked
    up, with what the inventory gained, counted before and after."""

    block: str
    asked: int = Field(description="blocks asked for")
    gained: dict[str, int] = Field(description="items the inventory holds more of than before, by name")
    steps: int = Field(description="blocks walked to and dug")
    dug_on_the_way: int = Field(0, description="blocks dug to reach buried ones (a staircase down to stone or ore)")
    stop_reason: CollectStop
    missing: list[Item] = Field([], description="needs_tool: the cheapest tool the bot does not carry that the "
                                                "kind needs to drop, or a way to a buried one to be dug")
    kept: int = Field(0, description="cells of the goal's build that hold this kind: never dug, the goal builds them")


def act(build: dict[Cell, str], bot, a: Args):
    """The collecting, keeping `avoid` and the cells of the goal's build within its reach."""
    feet = bot.state().position
    near = [cell for cell in build if math.dist(cell, (feet.x, feet.y, feet.z)) <= a.radius + BEYOND_RADIUS]
    avoid = sorted({*map(tuple, a.avoid), *near})
    report = bot.call("collect", {**a.bridge_args(), "avoid": [list(c) for c in avoid]},
                      timeout_s=a.timeout_s + timeouts.CALL_S)
    kinds = {a.block, *dropped_by().get(a.block, ())}
    return {**report, "kept": sum(1 for cell in near if build[cell] in kinds)}


def summarize(r: Result) -> str:
    gained = ", ".join(f"{n} {name}" for name, n in r.gained.items()) or "nothing"
    kept = f"; {r.kept} {r.block} in the goal's build not dug (the goal builds them)" if r.kept else ""
    return f"{r.stop_reason}: dug {r.blocks_dug} of {r.asked} {r.block}; the inventory gained {gained}{kept}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, partial(act, kept(kwargs.get("executor"))), Result, summarize,
                    stopped_unless_completed(summarize), feeds_map=True)
