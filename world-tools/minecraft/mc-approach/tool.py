from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import BlockPos, Frozen, Vec3
from agent.mc.names import BlockName, Item
from agent.world.digging import BlockSeen
from agent.world.toolkit import RADII, ToolArgs, menu, run_tool

# The arguments' bounds (here only: approach.js takes the values as checked).
MAX_RADIUS, MAX_TIMEOUT_S = 32, 120


class Args(ToolArgs):
    block: BlockName = Field(description="the block name, e.g. gold_block, chest, oak_log",
                            json_schema_extra={"domain": "block_seen"})
    radius: int = Field(16, ge=1, le=MAX_RADIUS, description="blocks from the feet to look in", json_schema_extra=RADII)
    dig: bool = Field(True, description="when every block of the kind within the radius is buried, dig a way to the "
                                        "nearest: stairs and a tunnel, never straight down, never into lava or water")
    on_top: bool = Field(False, description="end standing on top of the block (one with two free cells above it), "
                                            "not beside it; a walk that may jump up, never digging")
    timeout_s: float = Field(60, ge=1, le=MAX_TIMEOUT_S, description="seconds for the walk, or the digging",
                           json_schema_extra=menu(60, 120))



ApproachStop = Literal["completed", "not_found", "unreachable", "needs_tool", "fluid_ahead", "drop_ahead", "unbreakable",
                       "blocked", "fell", "stopped", "timeout"]


class Result(Frozen):
    """mc-approach's result (bridge/helpers/approach.js): the bot walked beside the nearest block of
    a kind that a walk reaches, or dug a way to the nearest when all are buried; with on_top, it
    walked onto one. World blocks: x east, y up, z south."""

    block: str
    reached: bool = Field(description="whether it ended at the block: beside it, or with on_top standing on it "
                                      "(read back from the block under the feet)")
    on_top: bool = Field(False, description="whether the walk was to stand on the block, not beside it")
    stop_reason: ApproachStop
    detail: str = Field(description="one line: where it ended, or why it stopped")
    position: BlockPos | None = Field(description="the block walked to (with on_top: stood on); None when none "
                                                  "was reached")
    distance: float | None = Field(description="blocks from the feet to the block's centre, at the end")
    dug: list[BlockSeen] = Field([], description="blocks dug on a way to a buried one (burrow.js), in order")
    missing: list[Item] = Field([], description="needs_tool: the cheapest tool the way needs, which the bot does not carry")
    start: Vec3
    end: Vec3


def act(bot, a: Args):
    return bot.call("approach", a.bridge_args(), timeout_s=a.timeout_s + timeouts.CALL_S)


def summarize(r: Result) -> str:
    if not r.reached or r.position is None:
        return f"{r.stop_reason}: {r.detail}; feet at {r.end.text()}"
    p, dug = r.position, f", {len(r.dug)} blocks dug on the way" if r.dug else ""
    where = "on" if r.on_top else "beside"
    return f"{where} the {r.block} at ({p.x}, {p.y}, {p.z}), {r.distance:.1f} blocks from the feet{dug}"


def judge(r: Result) -> tuple[str, str] | None:
    return None if r.reached else (r.stop_reason, summarize(r))


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, judge, feeds_map=True)
