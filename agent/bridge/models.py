"""Data the bridge returns, as typed models.

Positions are world coordinates in blocks (agent/mc/geometry.py). Angles are
degrees in Minecraft's own convention (the F3 screen): yaw 0 = south,
90 = west, 180 = north, -90 = east, in (-180, 180]; pitch > 0 looks down.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from agent.mc.geometry import Facing, Frozen, Vec3


# The protocol's limit for one chat message: mc-say's bound; BotConnection.chat cuts longer text.
MAX_CHAT_LENGTH = 256


class BotState(Frozen):
    """One snapshot of the bot."""

    username: str
    version: str
    position: Vec3
    velocity: Vec3 = Field(description="blocks per tick")
    yaw_deg: float = Field(description="degrees, 0 = south, 90 = west, 180 = north, -90 = east")
    pitch_deg: float = Field(description="degrees, positive looks down")
    facing: Facing = Field(description="cardinal direction nearest the yaw")
    on_ground: bool
    health: float = Field(description="half-hearts, 0-20")
    food: float = Field(description="0-20")
    game_mode: str
    dimension: str
    time_of_day: int = Field(description="ticks into the day, 0-23999")


class PlayerPose(Frozen):
    """Another player's entity as this bot sees it (the server relays angles in 1/256 turns)."""

    username: str
    position: Vec3
    yaw_deg: float
    pitch_deg: float
    facing: Facing


class Orientation(Frozen):
    """Where the bot looks, in degrees (see the module docstring)."""

    yaw_deg: float
    pitch_deg: float
    facing: Facing


# drop_ahead and hazard_ahead come only from grid steps, which read the blocks ahead before walking.
StopReason = Literal["completed", "collision", "fell", "timeout", "disconnected", "drop_ahead", "hazard_ahead"]


class MoveReport(Orientation):
    """What a move really did: where it started and ended, and why it stopped.

    A grid step that stopped before what it read ahead (a wall, a drop deeper than it may walk
    down, a hazard) names it: `block`, `distance` and, for a drop, `depth`; otherwise they are None.
    """

    start: Vec3
    end: Vec3
    displacement: Vec3
    moved: float = Field(description="blocks moved horizontally, start to end, measured")
    stop_reason: StopReason
    fall_distance: float = Field(description="largest drop from a high point during the move, blocks")
    target: Vec3 | None = Field(None, description="grid steps: the block centre aimed at (the last safe one when it stopped early)")
    block: str | None = Field(None, description="grid steps: the block it stopped before (a wall, lava, ...); None for a drop")
    distance: int | None = Field(None, description="grid steps: blocks from the start block to the one it stopped before")
    depth: int | None = Field(None, description="drop_ahead: open blocks below the feet level there")


class BlockBox(Frozen):
    """Block names in a box around the bot's feet block (see bridge/helpers/scan.js for the order)."""

    origin: Vec3
    radius: int
    half_height: int
    palette: list[str | None]
    cells: list[int]

    def names(self) -> list[str | None]:
        return [self.palette[i] for i in self.cells]


class ViewerInfo(Frozen):
    """Where the web viewer listens."""

    url: str
    host: str
    port: int
    first_person: bool


class BridgeReply(Frozen):
    """What every JS helper answers: a result, or a coded failure."""

    ok: bool
    result: Any = None
    code: str | None = None
    message: str | None = None


EventKind = Literal["spawn", "death", "respawn", "forcedMove", "kicked", "end", "error", "chat", "whisper"]


class BotEvent(Frozen):
    """An event from the bot, as forwarded by bridge/helpers/connection.js."""

    kind: EventKind
    time: float = Field(description="Unix time, seconds, when Node saw it")
    seq: int = Field(0, description="order of arrival in this connection")
    username: str | None = None
    message: str | None = None
    reason: str | None = None
    logged_in: bool | None = None
    code: str | None = None
