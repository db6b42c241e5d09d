"""Communication primitives: say (to the user) and think (into the trace only)."""

from __future__ import annotations

from pydantic import Field

from agent.tools.interfaces import ToolContext
from agent.tools.model_schema import ArgsModel
from agent.tools.result import ToolResult


class SayArgs(ArgsModel):
    message: str = Field(description="what to say")


def say(ctx: ToolContext, a: SayArgs) -> ToolResult:
    ctx.say(a.message)
    return ToolResult.success(a.message, f"said: {a.message}")


class ThinkArgs(ArgsModel):
    thought: str = Field(description="the reasoning to keep")


def think(ctx: ToolContext, a: ThinkArgs) -> ToolResult:
    """Nothing happens but the record of the call: the planner's reasoning, kept in the trace."""
    return ToolResult.success(a.thought, f"thought: {a.thought}")
