from typing import Literal

from agent.bridge.models import BotState
from agent.world.toolkit import NoArgs, call, run_tool


class Result(BotState):
    """mc-status' result (bridge/helpers/status.js): the bridge's bot state and whether the bot stands or falls."""

    vertical_state: Literal["stable", "falling"]


def summarize(s: Result) -> str:
    return (f"at {s.position.text()} facing {s.facing} (yaw {s.yaw_deg:.0f}, pitch {s.pitch_deg:.0f}), "
            f"health {s.health:g}, food {s.food:g}, {s.vertical_state}, {s.game_mode}")


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, NoArgs, call("status"), Result, summarize)
