from agent.world.results.status import Status
from agent.world.toolkit import NoArgs, call, run_tool


def summarize(s: Status) -> str:
    return (f"at {s.position.text()} facing {s.facing} (yaw {s.yaw_deg:.0f}, pitch {s.pitch_deg:.0f}), "
            f"health {s.health:g}, food {s.food:g}, {s.vertical_state}, {s.game_mode}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, NoArgs, call("status"), Status, summarize)
