"""mc-follow's result (bridge/helpers/follow.js): a player followed at a distance for a bounded
time, with the distance kept, measured. World blocks: x east, y up, z south; distances are
blocks from the bot's feet to the player's."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Vec3
from agent.world.models import Model

FollowStop = Literal["completed", "lost", "stopped", "disconnected"]


class FollowReport(Model):
    player: str
    distance: float = Field(description="the distance asked for")
    seconds: float
    stop_reason: FollowStop = Field(description="completed: followed for the whole time; lost: the player went out of view")
    samples: int = Field(description="distances measured, about 4 a second")
    median_distance: float | None
    max_distance: float | None
    end_distance: float | None
    start: Vec3
    end: Vec3
    player_end: Vec3
