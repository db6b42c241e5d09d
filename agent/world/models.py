"""What every world tool's result model shares: the `Model` base and `BlockPos`.

Each world tool's result model is its tool.py's `Result`, beside its `Args`. One that several
tools or the core read lives in agent/world, in a module named for what it is (digging.py,
inventory.py, making.py, pathfinding.py, respawn.py; mc-map's view in spatial/view.py); the
bridge's replies (BotState, MoveReport, Orientation, ...) live in agent/bridge/models.py.

World positions are blocks (x east, y up, z south). Egocentric offsets are whole
blocks from the feet block: forward, right, up, with the facing snapped to its
cardinal. Angles are degrees: yaw 0 = south, 90 = west, 180 = north, -90 = east;
pitch > 0 looks down.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BlockPos(Model):
    x: int
    y: int
    z: int
