from pydantic import Field

from agent.bridge import timeouts
from agent.world.pathfinding import GotoReport
from agent.world.toolkit import ToolArgs, WorldXZ, WorldY, menu, run_tool


class Args(ToolArgs):
    # A planner goes to a place the run knows (agent/planner/domains.py), never to a point a model made up.
    x: WorldXZ = Field(json_schema_extra={"domain": "place"})
    y: WorldY = Field(json_schema_extra={"domain": "place"})
    z: WorldXZ = Field(json_schema_extra={"domain": "place"})
    range: float = Field(1, ge=0, le=16, description="how close counts as there, blocks",
                         json_schema_extra=menu(1, 2, 3))
    timeout_s: float = Field(30, ge=1, le=120, description="seconds", json_schema_extra=menu(30, 60))
    allow_dig: bool = Field(False, description="may dig through blocks on the way")
    allow_build: bool = Field(False, description="may place blocks from the inventory to tower up or bridge")
    max_drop: int = Field(3, ge=0, le=16, description="deepest drop to walk down, blocks")


Result = GotoReport


def act(bot, a: Args):
    return bot.call("goto", a.bridge_args(), timeout_s=a.timeout_s + timeouts.CALL_S)


def summarize(g: Result) -> str:
    changed = f", dug {g.blocks_dug}, placed {g.blocks_placed}" if g.blocks_dug or g.blocks_placed else ""
    return f"{g.reason}: at {g.end.text()}, {g.distance_left:.2f} blocks from the target{changed}"


def judge(g: Result):
    if g.reached:
        return None
    return ("timeout" if g.reason == "timeout" else "unreachable", summarize(g))


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize, judge, feeds_map=True)
