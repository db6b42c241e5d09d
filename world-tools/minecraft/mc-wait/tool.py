from typing import Literal

from pydantic import ConfigDict, Field

from agent.bridge import timeouts
from agent.bridge.models import BotState
from agent.mc.names import Item
from agent.world.toolkit import ToolArgs, menu, run_tool

MAX_SECONDS = 60


class Args(ToolArgs):
    # The model writes only the seconds; the ends are a team sub-goal's (agent/goals/asking.py).
    model_config = ConfigDict(json_schema_extra={"forms": [{"required": ["seconds"],
                                                            "absent": ["until_carried", "until_told"]}]})
    seconds: float = Field(ge=0, le=MAX_SECONDS, description="the longest wait, in real seconds",
                           json_schema_extra=menu(1, 2, 5, 10))
    until_carried: Item | None = Field(None, description="end the wait once this many of the item are carried")
    until_told: bool = Field(False, description="end the wait once a player says something to the bot")


class Result(BotState):
    """The bot's state after the wait (as mc-status reports it), how long it waited and what ended it."""

    waited_s: float = Field(ge=0, description="real seconds waited")
    ended_by: Literal["time", "carried", "told", "stopped"] = Field(
        description="time: the seconds passed; carried: until_carried is carried; told: a player spoke; "
                    "stopped: a stop was asked for (Ctrl-C, a teammate reached the team's goal)")


def act(bot, a: Args):
    return bot.call("wait", a.bridge_args(), timeout_s=a.seconds + timeouts.CALL_S)


def summarize(s: Result) -> str:
    why = {"time": "", "carried": ", until the item came", "told": ", until a player spoke",
           "stopped": ", until a stop was asked for"}[s.ended_by]
    return f"waited {s.waited_s:.1f} s{why}; at {s.position.text()}, health {s.health:g}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize)
