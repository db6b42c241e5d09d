from agent.world.results.stop import Stopped
from agent.world.toolkit import NoArgs, call, run_tool


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, NoArgs, call("stop"), Stopped, lambda s: f"stopped, facing {s.facing}")
