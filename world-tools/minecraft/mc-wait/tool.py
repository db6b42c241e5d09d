from pydantic import Field

from agent.bridge import timeouts
from agent.bridge.models import BotState
from agent.world.toolkit import ToolArgs, menu, run_tool


class Args(ToolArgs):
    seconds: float = Field(ge=0, le=60, json_schema_extra=menu(1, 2, 5, 10))


Result = BotState


def act(bot, a: Args):
    return bot.call("wait", {"seconds": a.seconds}, timeout_s=a.seconds + timeouts.CALL_S)


def summarize(s: Result) -> str:
    return f"waited; at {s.position.text()}, health {s.health:g}"


def tool(input_value=None, **kwargs):
    return run_tool(kwargs, Args, act, Result, summarize)
