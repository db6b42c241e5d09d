"""What mc-map returns: the known map around the bot, as a picture and as frontiers to go to.

World blocks: x east, y up, z south; a cell is a feet block. Egocentric offsets are whole
blocks from the bot's feet block: forward, right, up, with the facing snapped to its cardinal."""

from __future__ import annotations

from pydantic import Field

from agent.mc.geometry import Facing
from agent.world.models import BlockPos, Model


class MapCell(Model):
    """A cell of the map: where it is in the world, and from the bot's feet block."""

    x: int
    y: int
    z: int
    forward: int
    right: int
    up: int
    distance: float = Field(description="straight-line blocks from the feet block")


class MapFrontier(MapCell):
    """A standable feet block next to unknown space."""

    bearing: str = Field(description="egocentric: ahead, ahead right, right, behind right, behind, ... or here")
    moves: int | None = Field(description="walking moves from the bot; None: not reachable by walking known cells")
    reachable: bool
    unknown: int = Field(description="unknown cells beside it (feet, head and footing of its 4 neighbours)")
    sky: bool = Field(description="nothing opaque above it")


class SeenBlock(MapCell):
    """A block mc-find saw by name (the map keeps it)."""

    name: str


class MapView(Model):
    feet: BlockPos
    facing: Facing
    radius: int
    sky_above: bool = Field(description="nothing opaque above the bot's head")
    known_cells: int = Field(description="cells known in the whole map")
    frontier_count: int = Field(description="frontiers within the radius")
    reachable_frontiers: int
    frontiers: list[MapFrontier] = Field(description="reachable ones first, fewest moves first, then nearest; capped")
    seen: list[SeenBlock] = Field([], description="blocks mc-find saw by name within twice the radius, nearest first; capped")
    picture: list[str] = Field(description="top-down at the feet level, north up, rows north to south")
    legend: str
