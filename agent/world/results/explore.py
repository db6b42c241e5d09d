"""What mc-explore returns: why it stopped, what it found, the way it went and what is left.

World blocks: x east, y up, z south; a cell is a feet block."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.geometry import Vec3
from agent.world.models import Model

StopReason = Literal["goal_reached", "goal_lost", "no_frontier", "max_blocks", "max_seconds"]


class Cell(Model):
    """A feet block, world blocks."""

    x: int
    y: int
    z: int


class Leg(Model):
    """One walk to a chosen cell."""

    target: Cell
    why: Literal["goal", "frontier", "beyond_wall"] = Field(
        description="goal: the check would hold there; frontier: next to unknown space; beyond_wall: unknown space "
                    "behind a one-block wall, dug through (allow_dig)")
    reached: bool
    reason: str = Field(description="pathfinder's: reached, no_path, timeout, ...")
    end: Vec3


class FrontierLeft(Model):
    """A frontier still open when mc-explore stopped."""

    x: int
    y: int
    z: int
    moves: int | None = Field(description="walking moves from the bot; None: not reachable by walking")
    distance: float = Field(description="straight-line blocks from the bot")


class ExploreReport(Model):
    stop_reason: StopReason
    check: str = Field(description="the goal check explored for, as written by describe()")
    verdict: str = Field(description="the check read in the world at the end")
    start: Vec3
    end: Vec3
    sky_above: bool = Field(description="nothing opaque above the head where it stopped")
    blocks_walked: float = Field(description="sum of the legs' straight-line lengths, blocks")
    seconds: float
    legs: list[Leg]
    climbs: int = Field(description="sub-plans run with the climbing tools when no frontier was left")
    frontiers_left: list[FrontierLeft] = Field(description="nearest first, at most 8")
    known_cells: int
