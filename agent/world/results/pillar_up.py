"""mc-pillar-up's result (bridge/helpers/pillar-up.js): climbing by placing blocks under the feet."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Vec3
from agent.world.models import Model

PillarStop = Literal["completed", "no_blocks", "blocked_above", "place_failed", "fell", "stopped", "disconnected"]


class PillarUpReport(Model):
    item: str | None = Field(description="the block placed; None when the inventory held none")
    start: Vec3
    end: Vec3
    height_gained: float = Field(description="blocks: end feet y minus start feet y, measured")
    blocks_used: int = Field(description="blocks read back in place under the feet")
    blocks_left: int = Field(description="of that item, in the inventory afterwards")
    steps: int = Field(description="jumps that ended standing on the new block")
    stop_reason: PillarStop
    detail: str = Field(description="one line: why it stopped")
