"""The executor's ToolObserver that writes every tool call, nested ones included, into the
trace. It lives here, above both, so that the trace never imports the tools' types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent.tools import ActionRecord, ToolResult
from agent.trace import TraceWriter


class ToolTrace:
    def __init__(self, writer: TraceWriter):
        self.writer = writer

    def tool_started(self, action: Mapping[str, Any], depth: int, tool_type: str | None) -> None:
        self.writer.tool_call(action, depth, tool_type)

    def tool_finished(self, record: ActionRecord, result: ToolResult) -> None:
        self.writer.tool_result(record.tool, record.depth, result.as_dict(), record.duration_us / 1e6)
