from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from agent.bridge import BotConnection, timeouts
from agent.checks.model import MAX_BLUEPRINT_CELLS, Placement, Plan
from agent.mc.blockstate import BlockSpec
from agent.mc.geometry import Frozen
from agent.mc.names import BlockName, Item
from agent.world.blueprints import shape_plan
from agent.world.toolkit import ToolArgs, WorldCell, in_world, menu, run_tool, unbounded_in_schema

# The arguments' bounds (here only: build.js takes the values as checked). A blueprint may be as
# big as a check's (Plan's bound): it comes from the goal check or a method, and the form below
# keeps the grammar from writing one at all.
MAX_TIMEOUT_S = 1800


# A blueprint's time when none is given: a start, and four times what a cell took on our server
# (0.75 s for a hut's 150 cells: walks, clearing and scaffolding included), within MAX_TIMEOUT_S.
START_S, CELL_S = 60, 3


class Placed(Placement):
    """A blueprint's cell: a block the bot carries and can place, with the state asked, or air."""

    block: BlockSpec = Field(json_schema_extra={"domain": "placeable"})


class Args(ToolArgs):
    # The grammar writes a shape (agent/tools/schema.py's Form); a blueprint comes from the goal
    # check or a method, never from a model spelling its cells.
    model_config = ConfigDict(json_schema_extra={"forms": [{"required": ["shape", "block"], "absent": ["anchor", "blocks"]}]})
    shape: Literal["wall", "pillar"] | None = Field(None, description="a named shape, laid out ahead of the bot")
    block: BlockName | None = Field(None, description="the block to build a shape of, e.g. dirt, cobblestone",
                                    json_schema_extra={"domain": "placeable"})
    length: int = Field(3, ge=1, le=8, description="a wall's width, across the facing")
    height: int = Field(2, ge=1, le=6)
    forward: int = Field(2, ge=1, le=4, description="blocks ahead of the feet")
    anchor: WorldCell | None = Field(None, description="a blueprint's world cell [x, y, z]")
    blocks: list[Placed] | None = Field(
        None, min_length=1, max_length=MAX_BLUEPRINT_CELLS, json_schema_extra=unbounded_in_schema,
        description="a blueprint: [{at: [dx, dy, dz], block}] from the anchor; a block with its state "
                    "(oak_stairs[facing=east]) is placed so; `air` cells are cleared")
    timeout_s: float | None = Field(None, ge=1, le=MAX_TIMEOUT_S, json_schema_extra=menu(60, 120),
                                    description="seconds for the whole building; by default sized to the blueprint")

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

    def seconds(self, cells: int) -> float:
        """The call's time: as given, else sized to `cells`."""
        return self.timeout_s if self.timeout_s is not None else min(MAX_TIMEOUT_S, START_S + CELL_S * cells)


class UnbuiltCell(Frozen):
    x: int
    y: int
    z: int
    block: str = Field(description="what the cell must hold, with the state asked")
    now: str | None = Field(description="what the cell holds; None when not loaded")
    reason: str = Field(description="why it is not right")


class Scaffolding(Frozen):
    placed: int = Field(description="blocks set down to stand on, to reach high cells")
    removed: int = Field(description="of those, dug away again")
    left: int = Field(description="still standing (a stop or a timeout came first, or one could not be dug)")


class Result(Frozen):
    """mc-build's result (bridge/helpers/build.js): a blueprint built from the inventory and read
    back from the world. World blocks: x east, y up, z south."""

    cells: int
    right: int = Field(description="cells holding their block in the state asked, read back after building")
    share: float = Field(description="right / cells")
    placed: int = Field(description="cells this call placed")
    cleared: int = Field(description="cells this call dug clear: another block, a plant, terrain, or an air cell")
    scaffold: Scaffolding
    missing: list[UnbuiltCell] = Field(description="empty cells not placed (the first 32), each with why")
    wrong: list[UnbuiltCell] = Field(description="cells another block holds (the first 32), each with why")
    short: dict[str, int] = Field(description="items the cells not right need beyond what the inventory holds")
    inventory: list[Item] = Field(description="what the inventory holds of the items short")
    stop_reason: Literal["completed", "timeout", "stopped"]
    detail: str


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
    seconds = a.seconds(len(cells))
    return bot.call("build", {"cells": cells, "timeout_s": seconds}, timeout_s=seconds + timeouts.CALL_S)


def summarize(r: Result) -> str:
    left = r.missing + r.wrong
    why = f"; not right: {left[0].block} at ({left[0].x}, {left[0].y}, {left[0].z}): {left[0].reason}" if left else ""
    short = f"; short of {', '.join(f'{n} {item}' for item, n in r.short.items())}" if r.short else ""
    return f"{r.right} of {r.cells} cells right ({r.share:.0%}); placed {r.placed}, cleared {r.cleared}{short}{why}"


def judge(r: Result) -> tuple[str, str] | None:
    if r.right == r.cells:
        return None
    return (r.stop_reason if r.stop_reason != "completed" else "incomplete"), summarize(r)


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, judge, feeds_map=True)
