"""What a planning command prints: each step as it happens, and a run's summary at its end."""

from __future__ import annotations

import sys

from rich.text import Text

from agent.planner import RunResult
from agent.replay.timeline import (model_reading_line, not_understood_line, offered_line, render, timeline_console,
                                   understood_line)
from agent.session import WorldSession
from agent.trace import Event
from agent.trace.schema import Chat, DoneClaim, LlmCall, RunEnd, RunStart, ToolCall, ToolResult, Understood

# Outcomes where something outside the agent failed: said on stderr too, for whoever runs it unattended.
ENDED_BY_FAULT = ("llm_error", "disconnected")
# Events the summary or nobody needs to see while the run goes on.
QUIET = (RunStart, RunEnd, LlmCall, Chat, ToolCall, ToolResult)


def say_where(session: WorldSession) -> None:
    """Where the local server is, once the bot is in it."""
    if session.server is not None:
        print(f"local server: Minecraft {session.server.version} at {session.address}")


def print_progress(event: Event, who: str = "") -> None:
    """A line per step and claim as the run goes; at its start, the tools it offers. `who`: the
    bot's name, before each line of a team's run."""
    if isinstance(event, RunStart) and event.plan == 0:
        lines = [offered_line(event)]
    elif isinstance(event, Understood):
        lines = [understood_line(event), *filter(None, [not_understood_line(event), model_reading_line(event)])]
    elif isinstance(event, QUIET) or (isinstance(event, DoneClaim) and event.by == "method"):
        return
    else:
        lines = render(event, details=False)
    console = timeline_console()
    for line in lines:
        console.print(Text(f"{who}: ").append_text(line) if who else line)
    sys.stdout.flush()


def print_summary(result: RunResult) -> None:
    usage = result.usage
    print(f"outcome: {result.outcome} ({result.reason})")
    if result.outcome in ENDED_BY_FAULT:
        print(f"mcagent: {result.outcome}: {result.reason}", file=sys.stderr)
    if result.claims:
        print(f"success claims: {result.claims}, refused by the goal check: {result.claims_refused}")
    print(f"steps: {result.steps} outer, {result.inner_steps} inner; wall {result.wall_s:.1f} s; "
          f"LLM {usage.seconds:.1f} s in {usage.calls} calls ({result.llm})")
    print(f"tokens: {usage.prompt_tokens:,} in ({usage.prefilled_tokens:,} prefilled), {usage.completion_tokens:,} out")
    if result.rejoins or result.deaths:
        print(f"world: the bot joined again {result.rejoins} time(s), died and was respawned {result.deaths} time(s)")
    if result.trace is not None:
        print(f"trace: {result.trace}")
    if result.final_check is not None:
        print(f"goal check after the run: {result.final_check.detail}")
    if result.judged is not None:
        print(f"judge (hidden from the planner): {result.judged.detail}")
