"""What the digging tools' results share (bridge/helpers/digging.js): the blocks dug, each where it was met,
and how long a run of digging steps may take. mc-dig-stairs, mc-tunnel, mc-collect and mc-approach."""

from __future__ import annotations

from pydantic import Field

from agent.mc.geometry import BlockPos, Frozen

# bridge/helpers/digging.js: a dig is at most 10 s of digging plus 2 s for the server's word;
# a step waits at most 2 s to be at rest first (stepwise.js), walks into the next cell in at
# most 3 s and lands in 2 s more.
DIG_S, MOVE_S = 12.0, 7.0


def digging_seconds(steps: int, digs_per_step: int) -> float:
    """The longest a run of digging steps may take: what its bridge call waits for."""
    return steps * (digs_per_step * DIG_S + MOVE_S)


class BlockSeen(Frozen):
    """A block at a world position and its egocentric offset from the feet block of the step it was met in."""

    block: str
    position: BlockPos
    forward: int
    right: int
    up: int


class DigRun(Frozen):
    """What every digging run reports besides its own fields."""

    blocks_dug: int = Field(description="blocks really gone after digging (cells already free are not counted)")
    dug: list[BlockSeen] = Field(description="the dug blocks, in order")
    fluid: BlockSeen | None = Field(None, description="fluid_ahead: the lava or water found")
    detail: str = Field(description="one line: why it stopped")
