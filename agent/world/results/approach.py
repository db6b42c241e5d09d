"""mc-approach's result (bridge/helpers/approach.js): the bot walked beside the nearest block of
a kind that a walk reaches. World blocks: x east, y up, z south."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.bridge.models import Vec3
from agent.world.models import BlockPos, Model

ApproachStop = Literal["completed", "not_found", "unreachable", "timeout"]


class ApproachReport(Model):
    block: str
    reached: bool
    stop_reason: ApproachStop
    detail: str = Field(description="one line: where it ended, or why it stopped")
    position: BlockPos | None = Field(description="the block walked to; None when none was reached")
    distance: float | None = Field(description="blocks from the feet to the block's centre, at the end")
    start: Vec3
    end: Vec3
