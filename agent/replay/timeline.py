"""A trace as a terminal timeline, one event at a time, so that `mcagent run` prints its
progress and `mcagent replay` (with --follow too) prints a recorded run the same way.

Inner steps are written as they happen, before the outer step of their method, so the
method's start, its inner steps (indented, numbered outer.inner) and its end come between
the lines of the outer loop.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from agent.trace.schema import (
    BuildSeen, Chat, Choice, ChatGoal, Command, Death, Disconnect, DoneClaim, Error, Event, Focused, GoalAdded, Judged, MessageRead, MethodEnd, MethodStart,
    MethodStep, Milestone, Needed, OuterStep, Respawn, RunEnd, RunStart, ToolResult, Understood,
)

ARGS_SHOWN, RESULT_SHOWN = 48, 100
STATUS_STYLE = {"success": "green", "failed": "red"}


@dataclass(frozen=True)
class Filters:
    """What to show: one outer step, one method's events, or only tool calls (nested ones too)."""

    step: int | None = None
    method: str | None = None
    tools_only: bool = False
    details: bool = True  # thoughts, result summaries and next tasks under each step

    def keep(self, event: Event) -> bool:
        if self.tools_only != isinstance(event, ToolResult):
            return False
        if self.step is not None and getattr(event, "outer_step", self.step) != self.step:
            return False
        if self.method is not None:
            name = event.inner_loop.method_name if isinstance(event, MethodStep) else getattr(event, "method", None)
            return name == self.method
        return True


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _status(result: dict) -> Text:
    status = str(result.get("status"))
    shown = status if status == "success" else f"{status} ({result.get('code')})"
    return Text(f"{shown:<20}", style=STATUS_STYLE.get(status, "yellow"))


def step_label(step: OuterStep | MethodStep) -> str:
    """`3` for an outer step, `3.2` for a method's inner step, `sub1:2` in a sub-plan."""
    where = f"{step.outer_step}.{step.inner_loop.inner_step}" if isinstance(step, MethodStep) else str(step.outer_step)
    return f"sub{step.plan}:{where}" if step.plan else where


def _step(event: OuterStep | MethodStep, details: bool) -> list[Text]:
    where = step_label(event)
    args = json.dumps({k: v for k, v in event.action.items() if k not in ("type", "_inner_loop")}, ensure_ascii=False)
    line = Text(f"step {where:<7} ", style="bold" if isinstance(event, OuterStep) else "")
    line.append(f"{event.tool or '(none)':<20} ", style="cyan")
    line.append(f"{clip(args, ARGS_SHOWN):<{ARGS_SHOWN}} ")
    line.append_text(_status(event.result))
    line.append(f" {event.wall_s:6.2f} s")
    lines = [line]
    if details:
        pad = "    " if isinstance(event, MethodStep) else "  "
        if event.thoughts:
            lines.append(Text(f"{pad}thoughts: {clip(event.thoughts, RESULT_SHOWN)}", style="italic dim"))
        lines.append(Text(f"{pad}result: {clip(str(event.result.get('value', '')), RESULT_SHOWN)}", style="dim"))
        timing = f"{pad}tool {event.tool_s:.2f} s, LLM {event.llm.seconds:.2f} s in {event.llm.calls} calls"
        lines.append(Text(f"{timing}; next: {clip(event.next_task, RESULT_SHOWN)}", style="dim"))
        if isinstance(event, OuterStep) and event.offered:
            lines.append(Text(f"{pad}offered: {', '.join(event.offered)}", style="dim"))
    if isinstance(event, OuterStep) and event.choice is not None:
        lines.append(choice_line(event.choice))
    if event.loop:
        lines.append(Text(f"  {event.loop}", style="yellow"))
    return lines


def choice_line(choice: Choice) -> Text:
    """`  chosen by the runtime: only craft achieves has_item chest with the check's arguments`, or
    `  chosen by the model: prior x model^0.40 (craft 0.52/0.71, mc-craft 0.31/0.20)`."""
    if choice.by == "runtime":
        return Text(f"  chosen by the runtime: {choice.why}", style="dim")
    if choice.by == "baseline":
        return Text(f"  chosen by the baseline: {choice.why}", style="dim")
    scored = ", ".join(f"{o.tool} {o.prior:.2f}/{o.model:.2f}" for o in choice.options if o.model is not None)
    return Text(f"  chosen by the model: {choice.why}" + (f" (prior/model: {scored})" if scored else ""), style="dim")


def understood_line(event: Understood) -> Text:
    """`understood: 1. has_item oak_log 3  2. container_has oak_log 3 (read by rules)`."""
    if not event.subgoals:
        return Text("understood: nothing a check can judge (the run has no check)", style="yellow")
    parts = "  ".join(f"{n}. {g.described}" for n, g in enumerate(event.subgoals, 1))
    by = sorted({g.by for g in event.subgoals})
    return Text(f"understood: {parts} ({'read by ' + ', '.join(by) if by != ['given'] else 'the check given'})",
                style="bold")


def not_understood_line(event: Understood) -> Text | None:
    """`not understood: "the shed" (no such thing in the game: shed)`; None when every word was read."""
    if not event.not_understood:
        return None
    return Text(f"not understood: {'; '.join(event.not_understood)}", style="yellow")


def model_reading_line(event: Understood) -> Text | None:
    """`the model reads no goals (llm check: not measured)`: said only when no rule read the words
    and the backend's reading was not measured at the mark (agent/session/model_reading.py)."""
    if event.model_reading is None or event.model_reading.reads:
        return None
    return Text(f"the model reads no goals (llm check: {event.model_reading.why})", style="yellow")


def offered_line(event: RunStart) -> Text:
    return Text(f"tools offered ({catalog_said(event)})", style="dim")


def catalog_said(event: RunStart) -> str:
    """What the outer loop was offered, and how chosen: 'ranked: explore-area, mc-map; guidance: x'."""
    said = f"{event.catalog or 'not recorded how'}: {', '.join(event.tools)}"
    return said + (f"; guidance: {', '.join(event.guidance)}" if event.guidance else "")


def render(event: Event, details: bool = True) -> list[Text]:
    """The lines one event shows as; events that only the report uses show as none."""
    if isinstance(event, OuterStep | MethodStep):
        return _step(event, details)
    if isinstance(event, ToolResult):
        line = Text(f"call {event.call_id:<5} {'  ' * event.depth}")
        line.append(f"{event.tool or '(none)':<20} ", style="cyan")
        line.append_text(_status(event.result))
        line.append(f" {event.duration_s:6.3f} s  {clip(str(event.result.get('value', '')), RESULT_SHOWN)}")
        return [line]
    if isinstance(event, MethodStart):
        return [Text(f"  method {event.method} started (at most {event.max_steps} inner steps)", style="magenta")]
    if isinstance(event, MethodEnd):
        style = "red" if event.outcome in ("FAILED", "STOPPED") else "magenta"
        return [Text(f"  method {event.method}: {event.outcome} after {event.inner_steps} inner steps", style=style)]
    return _other(event)


def _claim(event: DoneClaim) -> Text:
    """A claim and the world's verdict: 'DONE refused: sky_visible is false: ...' and the like."""
    if event.by == "method":
        return Text(f"  method {event.method} claims success; goal check: {event.detail}", style="magenta")
    if event.by == "world":
        return Text(f"goal reached (verified after step {event.outer_step}): {event.detail}", style="bold green")
    if event.holds is None:
        return Text("DONE claimed (unverified: no check)", style="yellow")
    if event.holds:
        return Text(f"DONE claimed and verified: {event.detail}", style="green")
    return Text(f"DONE refused: {event.detail}", style="bold red")


def _other(event: Event) -> list[Text]:
    if isinstance(event, RunStart) and event.plan == 0:
        return [Text(f"run: {event.goal} (LLM {event.llm}, at most {event.max_steps} steps)", style="bold"),
                offered_line(event)]
    if isinstance(event, RunEnd) and event.plan == 0:
        style = {"success": "green", "done": "yellow"}.get(event.outcome, "red")
        return [Text(f"outcome: {event.outcome} ({event.reason})", style=f"bold {style}")]
    if isinstance(event, DoneClaim):
        return [_claim(event)]
    if isinstance(event, Understood):
        return [understood_line(event), *filter(None, [not_understood_line(event), model_reading_line(event)])]
    if isinstance(event, Focused):
        return [Text(f"part {event.index} of {event.of} before step {event.outer_step}: {event.check}", style="bold")]
    if isinstance(event, Needed):
        return [Text(f"needed after step {event.outer_step} ({event.tool} lacked it): {event.check}, "
                     f"part {event.index} now", style="bold yellow")]
    if isinstance(event, MessageRead):
        became = f" -> {event.became}" if event.became else ""
        return [Text(f"read before step {event.outer_step}: {event.player}: {event.text}{became}", style="yellow")]
    if isinstance(event, Judged):
        return [Text(f"judge (hidden from the planner): {event.detail}", style="green" if event.holds else "red")]
    if isinstance(event, BuildSeen):
        whole = all(c.right for c in event.cells)
        return [Text(f"the blueprint at {event.anchor} after the run: {event.said()}", style="green" if whole else "red")]
    if isinstance(event, GoalAdded):
        return [Text(f"new goal before step {event.outer_step}: {event.goal}", style="bold yellow")]
    if isinstance(event, Milestone):
        return [Text(f"milestone: {event.check} held at {event.after_s:.1f} s, after {event.llm_calls} LLM calls "
                     f"({event.detail})", style="green")]
    if isinstance(event, Command):
        verdict = "accepted" if event.accepted else f"refused: {event.reason}"
        return [Text(f"command {event.command} {event.argument} from {event.player} ({verdict})", style="yellow")]
    if isinstance(event, ChatGoal):
        return [chat_goal_line(event)]
    if isinstance(event, Chat):
        return [Text(f"chat <{event.username}> {event.message}", style="dim")]
    if isinstance(event, Death | Respawn):
        return [Text(f"the bot {'died' if isinstance(event, Death) else 'respawned'}", style="red")]
    if isinstance(event, Disconnect):
        return [Text(f"disconnected ({event.kind}): {event.reason}", style="bold red")]
    if isinstance(event, Error):
        return [Text(f"error ({event.source}): {event.message}", style="bold red")]
    return []


def chat_goal_line(event: ChatGoal) -> Text:
    """A turn of a goal said in chat: `chat goal from alex (chat): "get 3 oak logs and dance" ->
    asked: alex: I'd get 3 oak logs; ...`; a run started by it shows the goal it was given."""
    heard = f'"{event.said}"' if event.said else "no answer"
    detail = event.goal if event.outcome == "started" else event.reason or event.reply
    style = {"started": "bold yellow", "asked": "yellow"}.get(event.outcome, "dim")
    return Text(f"chat goal from {event.player} ({event.via}): {heard} -> {event.outcome.replace('_', ' ')}"
                + (f": {detail}" if detail else ""), style=style)


def timeline_console() -> Console:
    """Colour only on a terminal, whatever rich guesses from the environment, and lines never
    wrapped: piped output is one plain line per step, as scripts and tests read it."""
    return Console(soft_wrap=True, highlight=False, force_terminal=sys.stdout.isatty())
