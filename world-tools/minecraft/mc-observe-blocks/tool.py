from typing import Literal

from pydantic import Field

from agent.mc.geometry import BlockPos, Facing, Frozen
from agent.world.toolkit import ToolArgs, call, fmt_offset, menu, run_tool


class Args(ToolArgs):
    radius: int = Field(4, ge=1, le=16, description="blocks to look in each direction",
                        json_schema_extra=menu(4, 8, 16))


class Free(Frozen):
    """Free blocks before the first obstruction, capped at the radius (0 = blocked at once)."""

    forward: int
    back: int
    left: int
    right: int
    up: int = Field(description="above the head")
    down: int = Field(description="below the feet")


class Clearance(Frozen):
    feet: bool
    head: bool


class Hazard(Frozen):
    kind: Literal["lava", "fire", "water", "cactus", "drop"]
    block: str | None
    forward: int
    right: int
    up: int
    distance: float
    depth: int | None = Field(None, description="drops only: open blocks below")


class Grid(Frozen):
    layout: str
    palette: dict[str, str | None]
    layers: list[list[str]]


class Result(Frozen):
    """mc-observe-blocks' result (bridge/helpers/observe-blocks.js): the blocks around the bot, egocentric."""

    facing: Facing
    feet: BlockPos
    radius: int
    free: Free
    footing_ahead: str | None = Field(description="the block at forward 1, up -1")
    clearance_ahead: Clearance
    step_up_ahead: bool = Field(
        description="the block ahead at feet level is solid, the two above it free and the one above the head too: "
        "a step mc-move climbs")
    sky_visible: bool
    drop_ahead: int = Field(description="open blocks straight down from forward 1, up -1; 0 = solid footing")
    open_terrain: bool
    hazards: list[Hazard]
    counts: dict[str, int]
    grid: Grid


def ahead(o: Result) -> str:
    """The block ahead as a walker meets it: a step to climb, a wall, a drop or a floor."""
    if o.step_up_ahead:
        return "step up ahead"
    if not (o.clearance_ahead.feet and o.clearance_ahead.head):
        return "blocked ahead"
    return f"drop {o.drop_ahead} ahead" if o.drop_ahead else f"floor ahead ({o.footing_ahead})"


def summarize(o: Result) -> str:
    f = o.free
    hazards = "; ".join(f"{h.kind} at {fmt_offset(h.forward, h.right, h.up)}" for h in o.hazards[:3]) or "none"
    return (f"facing {o.facing}; free forward {f.forward}, back {f.back}, left {f.left}, right {f.right}, "
            f"up {f.up}, down {f.down}; {ahead(o)}; "
            f"sky {'visible' if o.sky_visible else 'hidden'}{', open terrain' if o.open_terrain else ''}; hazards: {hazards}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("observe"), Result, summarize, feeds_map=True)
