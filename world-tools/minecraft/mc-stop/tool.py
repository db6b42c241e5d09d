from agent.mc.geometry import Facing, Frozen
from agent.world.toolkit import NoArgs, call, run_tool


class Result(Frozen):
    """mc-stop's result (bridge/helpers/stop.js): controls released, and where the bot faces."""

    released: bool
    yaw_deg: float
    pitch_deg: float
    facing: Facing


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, NoArgs, call("stop"), Result, lambda s: f"stopped, facing {s.facing}")
