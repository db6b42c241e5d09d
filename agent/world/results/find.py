"""What mc-find returns (bridge/helpers/find.js): the nearest blocks of the kinds asked for,
dropped items and other players, nearest first.

World positions are blocks (x east, y up, z south): a block's cell, an entity's feet. Egocentric
offsets are whole blocks from the bot's feet block (forward, right, up; facing snapped to its
cardinal). Distances are blocks from the bot's feet to a block's centre or an entity."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Vec3
from agent.world.models import BlockPos, Model


class Sighting(Model):
    kind: Literal["block", "item", "player"]
    name: str = Field(description="the block or item name, or the player's username")
    count: int | None = Field(None, description="items in a dropped stack")
    position: Vec3
    forward: int
    right: int
    up: int
    distance: float
    reachable: bool | None = Field(description="a walk reaches beside it, without digging or building; "
                                               "None when not searched (past the nearest few) or out of time")


class FindReport(Model):
    radius: int
    feet: BlockPos = Field(description="the bot's feet block when it looked")
    found: list[Sighting]
    missing: list[str] = Field(description="block kinds asked for with none within the radius")
