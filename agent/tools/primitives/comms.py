"""Communication primitives: say (to the user) and think (into the trace only)."""

from __future__ import annotations

from agent.tools.interfaces import ToolContext
from agent.tools.result import ToolResult


def say(ctx: ToolContext, *, message: str) -> ToolResult:
    ctx.say(message)
    return ToolResult.success(message, f"said: {message}")


def think(ctx: ToolContext, *, thought: str) -> ToolResult:
    """Nothing happens but the record of the call: the planner's reasoning, kept in the trace."""
    return ToolResult.success(thought, f"thought: {thought}")
