from pydantic import Field

from agent.world.models import Observation
from agent.world.toolkit import ToolArgs, call, fmt_offset, run_tool


class Args(ToolArgs):
    radius: int = Field(4, ge=1, le=16)


def summarize(o: Observation) -> str:
    f = o.free
    ahead = "clear ahead" if o.clearance_ahead.feet and o.clearance_ahead.head else "blocked ahead"
    hazards = "; ".join(f"{h.kind} at {fmt_offset(h.forward, h.right, h.up)}" for h in o.hazards[:3]) or "none"
    return (f"facing {o.facing}; free forward {f.forward}, back {f.back}, left {f.left}, right {f.right}, "
            f"up {f.up}, down {f.down}; {ahead}, footing {o.footing_ahead}, drop {o.drop_ahead}; "
            f"sky {'visible' if o.sky_visible else 'hidden'}{', open terrain' if o.open_terrain else ''}; hazards: {hazards}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, call("observe"), Observation, summarize)
