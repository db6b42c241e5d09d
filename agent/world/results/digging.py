"""What digging tools report about single blocks (bridge/helpers/digging.js): mc-dig-stairs, mc-tunnel."""

from __future__ import annotations

from pydantic import Field

from agent.world.models import BlockPos, Model


class BlockSeen(Model):
    """A block at a world position and its egocentric offset from the feet block of the step it was met in."""

    block: str
    position: BlockPos
    forward: int
    right: int
    up: int


class DigRun(Model):
    """What every digging run reports besides its own fields."""

    blocks_dug: int = Field(description="blocks really gone after digging (cells already free are not counted)")
    dug: list[BlockSeen] = Field(description="the dug blocks, in order")
    fluid: BlockSeen | None = Field(None, description="fluid_ahead: the lava or water found")
    detail: str = Field(description="one line: why it stopped")
