from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import Frozen, Vec3
from agent.world.toolkit import ToolArgs, menu, run_tool

# The arguments' bounds (here only: follow.js takes the values as checked).
MAX_DISTANCE, MAX_SECONDS = 16, 300


class Args(ToolArgs):
    player: str = Field(min_length=1, max_length=16, pattern=r"^\w+$", description="the player's username",
                        json_schema_extra={"domain": "player"})
    distance: float = Field(2, ge=1, le=MAX_DISTANCE, description="blocks to keep from the player",
                            json_schema_extra=menu(2, 3, 5))
    seconds: float = Field(10, ge=1, le=MAX_SECONDS, description="how long to follow",
                           json_schema_extra=menu(10, 20, 30))


FollowStop = Literal["completed", "lost", "stopped", "disconnected"]


class Result(Frozen):
    """mc-follow's result (bridge/helpers/follow.js): a player followed at a distance for a bounded
    time, with the distance kept, measured. World blocks: x east, y up, z south; distances are
    blocks from the bot's feet to the player's."""

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


def act(bot, a: Args):
    return bot.call("follow", a.bridge_args(), timeout_s=a.seconds + timeouts.CALL_S)


def summarize(r: Result) -> str:
    if not r.samples:
        return f"{r.stop_reason}: {r.player} was not followed"
    return (f"{r.stop_reason}: followed {r.player} for {r.samples} samples at {r.median_distance:.1f} blocks "
            f"(median; at most {r.max_distance:.1f}, {r.end_distance:.1f} at the end)")


def judge(r: Result) -> tuple[str, str] | None:
    codes = {"completed": None, "lost": "not_found", "stopped": "stopped", "disconnected": "disconnected"}
    code = codes[r.stop_reason]
    why = "asked to stop" if code == "stopped" else f"{r.player} went out of view"
    return None if code is None else (code, f"{why}; {summarize(r)}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, judge, feeds_map=True)
