from typing import Literal

from pydantic import Field

from agent.bridge import timeouts
from agent.mc.geometry import Frozen, Vec3
from agent.world.toolkit import BlockTarget, call, run_tool

# bridge/helpers/place.js waits up to 5 s for the server to confirm.
PLACE_S = 5.0


class Args(BlockTarget):
    item: str = Field(description="block item name, e.g. dirt, cobblestone", json_schema_extra={"domain": "placeable"})
    face: Literal["below", "above", "north", "south", "west", "east"] | None = Field(
        None, description="the neighbour to place against; default: the first solid one, below first")


class Result(Frozen):
    """mc-place's result (bridge/helpers/place.js): one block placed, read back afterwards."""

    item: str
    position: Vec3
    placed: bool
    now: str | None
    against: str


def summarize(p: Result) -> str:
    done = "placed" if p.placed else "tried to place"
    return f"{done} {p.item} at ({p.position.x:g}, {p.position.y:g}, {p.position.z:g}) against {p.against}; now {p.now}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("place", timeout_s=PLACE_S + timeouts.CALL_S), Result, summarize,
                    feeds_map=True)
