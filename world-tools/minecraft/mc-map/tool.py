from typing import Literal

from pydantic import Field

from agent.world.spatial import MapView, map_view, memory_of, survey_into
from agent.world.toolkit import ToolArgs, fmt_offset, run_tool


class Args(ToolArgs):
    radius: Literal[4, 8, 12, 16] = Field(8, description="blocks to show in each direction")


Result = MapView


def summarize(m: Result) -> str:
    nearest = m.frontiers[0] if m.frontiers else None
    if nearest is None:
        line = f"no frontier within {m.radius} blocks"
    else:
        how = f"{nearest.moves} moves" if nearest.reachable else "not reachable by walking"
        line = (f"{m.frontier_count} frontiers within {m.radius} blocks ({m.reachable_frontiers} reachable); nearest "
                f"{fmt_offset(nearest.forward, nearest.right, nearest.up)} at x={nearest.x} y={nearest.y} z={nearest.z}, {how}")
    sky = "sky visible above" if m.sky_above else "sky hidden above"
    seen = ["seen: " + "; ".join(f"{b.name} at ({b.x}, {b.y}, {b.z}), {fmt_offset(b.forward, b.right, b.up)}" for b in m.seen)]
    # The words first: a prompt that clips the value keeps what the picture says in short.
    return "\n".join([f"{line}; {sky}; {m.known_cells} cells known", *(seen if m.seen else []), *m.picture, m.legend])


def tool(input_value=None, **kwargs):
    executor = kwargs.get("executor")

    def act(bot, a: Args) -> Result:
        memory = memory_of(executor)
        seen = survey_into(bot, memory, a.radius)
        return map_view(memory, seen.feet, seen.facing, a.radius)

    return run_tool(kwargs, Args, act, Result, summarize)
