from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from agent.bridge import BotConnection, timeouts
from agent.checks.model import Placement, Plan
from agent.mc.geometry import Frozen
from agent.mc.names import BlockName
from agent.world.blueprints import shape_plan
from agent.world.toolkit import ToolArgs, WorldCell, in_world, menu, run_tool

# The arguments' bounds (here only: build.js takes the values as checked).
MAX_CELLS, MAX_TIMEOUT_S = 64, 300


class Placed(Placement):
    """A blueprint's cell, its block one the bot carries and can place."""

    block: BlockName = Field(json_schema_extra={"domain": "placeable"})


class Args(ToolArgs):
    # The grammar writes a shape (agent/tools/schema.py's Form); a blueprint comes from the goal
    # check or a method, never from a model spelling 64 cells.
    model_config = ConfigDict(json_schema_extra={"forms": [{"required": ["shape", "block"], "absent": ["anchor", "blocks"]}]})
    shape: Literal["wall", "pillar"] | None = Field(None, description="a named shape, laid out ahead of the bot")
    block: BlockName | None = Field(None, description="the block to build a shape of, e.g. dirt, cobblestone",
                                    json_schema_extra={"domain": "placeable"})
    length: int = Field(3, ge=1, le=8, description="a wall's width, across the facing")
    height: int = Field(2, ge=1, le=6)
    forward: int = Field(2, ge=1, le=4, description="blocks ahead of the feet")
    anchor: WorldCell | None = Field(None, description="a blueprint's world cell [x, y, z]")
    blocks: list[Placed] | None = Field(None, min_length=1, max_length=MAX_CELLS,
                                           description="a blueprint: [{at: [dx, dy, dz], block}] from the anchor")
    timeout_s: float = Field(60, ge=1, le=MAX_TIMEOUT_S, description="seconds for the whole building",
                           json_schema_extra=menu(60, 120))

    @model_validator(mode="after")
    def _one_form(self) -> "Args":
        if (self.shape is None) == (self.blocks is None):
            raise ValueError("give a shape with its block, or a blueprint: anchor and blocks")
        if self.shape is not None and self.block is None:
            raise ValueError("a shape needs the block to build it of")
        if self.blocks is not None and self.anchor is None:
            raise ValueError("a blueprint needs its anchor, a world cell [x, y, z]")
        cells = Plan(anchor=self.anchor, blocks=self.blocks).cells() if self.blocks is not None else []
        outside = next((cell for cell, _ in cells if not in_world(cell)), None)
        if outside is not None:
            raise ValueError(f"the blueprint's cell {list(outside)} is outside the world")
        return self


class BuildCell(Frozen):
    x: int
    y: int
    z: int
    block: str = Field(description="what the cell must hold")


class UnbuiltCell(BuildCell):
    now: str | None = Field(description="what the cell holds; None when not loaded")
    reason: str = Field(description="why it was not placed")


class Result(Frozen):
    """mc-build's result (bridge/helpers/build.js): a blueprint placed from the inventory, read back
    cell by cell. World blocks: x east, y up, z south."""

    cells: int
    right: int = Field(description="cells holding their block, read back after building")
    share: float = Field(description="right / cells")
    placed: list[BuildCell] = Field(description="cells this call placed, in order")
    missing: list[UnbuiltCell] = Field(description="empty cells not placed: nothing to place, or to place against")
    wrong: list[UnbuiltCell] = Field(description="cells another block holds")
    stop_reason: Literal["completed", "timeout", "stopped"]


def plan(bot: BotConnection, a: Args) -> Plan:
    """The blueprint in world cells: as given, or the shape laid out from where the bot stands."""
    if a.blocks is not None and a.anchor is not None:
        return Plan(anchor=a.anchor, blocks=a.blocks)
    s = bot.state()
    feet = (int(s.position.x // 1), int((s.position.y + 1e-3) // 1), int(s.position.z // 1))
    return shape_plan(a.shape or "wall", a.block or "dirt", feet, s.facing, forward=a.forward, length=a.length,
                      height=a.height)


def act(bot: BotConnection, a: Args):
    cells = [{"x": x, "y": y, "z": z, "block": block} for (x, y, z), block in plan(bot, a).cells()]
    return bot.call("build", {"cells": cells, "timeout_s": a.timeout_s}, timeout_s=a.timeout_s + timeouts.CALL_S)


def summarize(r: Result) -> str:
    left = r.missing + r.wrong
    why = f"; {len(left)} not: {left[0].block} at ({left[0].x}, {left[0].y}, {left[0].z}): {left[0].reason}" if left else ""
    return f"{r.right} of {r.cells} cells right ({r.share:.0%}); placed {len(r.placed)}{why}"


def judge(r: Result) -> tuple[str, str] | None:
    if r.right == r.cells:
        return None
    return (r.stop_reason if r.stop_reason != "completed" else "incomplete"), summarize(r)


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, judge, feeds_map=True)
