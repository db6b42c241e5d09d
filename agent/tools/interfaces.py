"""What tools are handed, and what the executor is handed: small typed interfaces.

Primitives and python tools see the executor only through ToolContext, so they never depend
on its insides. The LLM backends, the method runner and the sub-planner (all from the
planner, step 4) plug in through LlmBackend, MethodRunner and Subplanner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from agent.infospace import Infospace
from agent.tools.result import ActionRecord, ToolResult
from agent.tools.spec import ToolSpec


class ToolContext(Protocol):
    """The executor as a tool sees it (passed to python tools as kwargs["executor"])."""

    infospace: Infospace
    # The body the world tools drive (for Minecraft, an agent.bridge.BotConnection), or None
    # when no world is connected. Opaque here: the core never looks inside it.
    world: Any

    def execute_action(self, action: Mapping[str, Any]) -> ToolResult:
        """Runs a nested tool call; it is validated and recorded like any other. Once a python
        tool it runs under has outlived its timeout, it fails at once with code `timeout`."""
        ...

    @property
    def cancelled(self) -> bool:
        """True once a python tool this call runs under has outlived its timeout: the call may not
        act any more, and a tool that acts in many steps stops at the next one."""
        ...

    def say(self, text: str) -> None:
        """Tells the user something (chat in the game, the console in the CLI)."""
        ...

    def heard(self, text: str) -> None:
        """The user's words (a goal, a command line): values they name confirm `verified: false` slots."""
        ...

    def subplan(self, goal: str, tools: list[str] | None = None, max_steps: int | None = None) -> ToolResult:
        """Plans toward `goal` with only `tools`, in at most `max_steps` steps; the result's data
        holds the outcome ("done", "max_steps", ...)."""
        ...


class LlmBackend(Protocol):
    """Completes a prompt. llm tools run their filled-in Skill.md body through it."""

    def complete(self, prompt: str, **params: Any) -> str: ...


class MethodRunner(Protocol):
    """Runs a method tool's protocol as a bounded inner loop (the planner, step 4)."""

    def __call__(self, spec: ToolSpec, args: dict[str, Any], executor: ToolContext) -> ToolResult: ...


class Subplanner(Protocol):
    """Runs a sub-plan for a python tool (the planner, step 4)."""

    def subplan(
        self, goal: str, tools: list[str] | None, max_steps: int | None, executor: ToolContext
    ) -> ToolResult: ...


class ToolObserver(Protocol):
    """Told of every tool call the executor makes, nested ones included (the trace writer)."""

    def tool_started(self, action: Mapping[str, Any], depth: int, tool_type: str | None) -> None:
        """Before the call runs; `depth` 0 is the planner's call, and `tool_type` None for no known tool."""
        ...

    def tool_finished(self, record: ActionRecord, result: ToolResult) -> None:
        """After it ran: its ActionRecord and its whole result."""
        ...
