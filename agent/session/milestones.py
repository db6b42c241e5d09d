"""Milestones: checks on the way to a run's goal (a scenario's `milestones`, such as a tech tree's
wooden, stone and iron pickaxe), each read in the world after every tool call, nested ones
included, until it first holds; then a `milestone` event records when, and after how many LLM
calls. The world decides, as for the goal."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from agent.checks import Check, evaluate
from agent.llm import Metered
from agent.session.world import WorldSession
from agent.tools import ActionRecord, ToolResult
from agent.tools.interfaces import ToolObserver
from agent.trace import TraceWriter
from agent.trace.schema import Milestone


class MilestoneWatch:
    """A ToolObserver that passes every call on to `inner` (the trace) and then reads the
    milestones not yet reached."""

    def __init__(self, inner: ToolObserver, checks: list[Check], session: WorldSession, backend: Metered,
                 writer: TraceWriter) -> None:
        self.inner, self.pending, self.session = inner, list(checks), session
        self.backend, self.writer, self.started = backend, writer, time.monotonic()

    def tool_started(self, action: Mapping[str, Any], depth: int, tool_type: str | None) -> None:
        self.inner.tool_started(action, depth, tool_type)

    def tool_finished(self, record: ActionRecord, result: ToolResult) -> None:
        self.inner.tool_finished(record, result)
        for check in list(self.pending):
            verdict = evaluate(self.session.bot, check)
            if verdict.holds:
                self.pending.remove(check)
                self.writer.add(Milestone(check=check.describe(), detail=verdict.detail, tool=record.tool,
                                          after_s=round(time.monotonic() - self.started, 1),
                                          llm_calls=self.backend.usage.calls))
