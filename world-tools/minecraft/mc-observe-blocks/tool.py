from pydantic import Field

from agent.world.results.observe_blocks import Observation
from agent.world.toolkit import ToolArgs, call, fmt_offset, menu, run_tool


class Args(ToolArgs):
    radius: int = Field(4, ge=1, le=16, description="blocks to look in each direction",
                        json_schema_extra=menu(4, 8, 16))


def ahead(o: Observation) -> str:
    """The block ahead as a walker meets it: a step to climb, a wall, a drop or a floor."""
    if o.step_up_ahead:
        return "step up ahead"
    if not (o.clearance_ahead.feet and o.clearance_ahead.head):
        return "blocked ahead"
    return f"drop {o.drop_ahead} ahead" if o.drop_ahead else f"floor ahead ({o.footing_ahead})"


def summarize(o: Observation) -> str:
    f = o.free
    hazards = "; ".join(f"{h.kind} at {fmt_offset(h.forward, h.right, h.up)}" for h in o.hazards[:3]) or "none"
    return (f"facing {o.facing}; free forward {f.forward}, back {f.back}, left {f.left}, right {f.right}, "
            f"up {f.up}, down {f.down}; {ahead(o)}; "
            f"sky {'visible' if o.sky_visible else 'hidden'}{', open terrain' if o.open_terrain else ''}; hazards: {hazards}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("observe"), Observation, summarize, feeds_map=True)
