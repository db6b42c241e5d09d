"""mc-approach's result (bridge/helpers/approach.js): the bot walked beside the nearest block of
a kind that a walk reaches, or dug a way to the nearest when all are buried. World blocks: x
east, y up, z south."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Vec3
from agent.mc.names import Item
from agent.world.models import BlockPos, Model
from agent.world.results.digging import BlockSeen

ApproachStop = Literal["completed", "not_found", "unreachable", "needs_tool", "fluid_ahead", "drop_ahead", "unbreakable",
                       "blocked", "fell", "stopped", "timeout"]


class ApproachReport(Model):
    block: str
    reached: bool
    stop_reason: ApproachStop
    detail: str = Field(description="one line: where it ended, or why it stopped")
    position: BlockPos | None = Field(description="the block walked to; None when none was reached")
    distance: float | None = Field(description="blocks from the feet to the block's centre, at the end")
    dug: list[BlockSeen] = Field([], description="blocks dug on a way to a buried one (burrow.js), in order")
    missing: list[Item] = Field([], description="needs_tool: the cheapest tool the way needs, which the bot does not carry")
    start: Vec3
    end: Vec3
