"""Writing a trace: each event appended as one JSON line and flushed at once, so a crash loses
at most the line being written. The writer is also the LLM backend's call listener; the
executor's tool calls (agent/planner/tool_trace.py) and the bot's pose and events
(agent/session/watching.py) reach it through adapters above, so it imports neither.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from agent.trace.records import LlmExchange
from agent.trace.schema import Event, LlmCall, Pose, ToolCall, ToolResult

PoseSource = Callable[[], "Pose | None"]


class TraceWriter:
    """Keeps the events of a run in memory and appends each to the JSONL file at once.

    `on_event` (and whatever `subscribe` adds) is told of each event after it is written. `pose` (set by whoever attaches a
    world) gives the bot's pose around tool calls. The planner sets `plan`, `outer_step` and
    `inner_step`, which stamp the tool calls made meanwhile. Thread-safe: bot events arrive
    on the bridge's callback thread.
    """

    def __init__(self, path: Path | None = None, on_event: Callable[[Event], None] | None = None):
        self.path = path
        self.events: list[Event] = []
        self.pose: PoseSource = lambda: None
        self.plan, self.outer_step, self.inner_step = 0, 0, None
        self._listeners = [on_event] if on_event is not None else []
        self._lock = threading.Lock()
        self._open: list[tuple[int, Pose | None]] = []  # the tool calls under way: (call_id, pose before)
        self._calls = 0
        self._file: IO[str] | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("w", encoding="utf-8")  # one trace per run

    def add(self, event: Event) -> None:
        with self._lock:
            self.events.append(event)
            if self._file is not None:
                self._file.write(event.model_dump_json() + "\n")
                self._file.flush()
        for listener in self._listeners:
            listener(event)

    def subscribe(self, listener: Callable[[Event], None]) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    # --- tool calls, as the executor reports them ------------------------------

    def tool_call(self, action: Mapping[str, Any], depth: int, tool_type: str | None) -> None:
        self._calls += 1
        pose = self.pose()
        self._open.append((self._calls, pose))
        tool = action.get("type")
        self.add(ToolCall(
            plan=self.plan, call_id=self._calls, tool=tool if isinstance(tool, str) else None, tool_type=tool_type,
            args={str(k): v for k, v in action.items() if k != "type"}, depth=depth, outer_step=self.outer_step,
            inner_step=self.inner_step, pose=pose,
        ))

    def tool_result(self, tool: str | None, depth: int, result: dict[str, Any], duration_s: float) -> None:
        """The latest call still open has ended: `result` is its uniform return, as a dict."""
        call_id, before = self._open.pop()
        self.add(ToolResult(
            plan=self.plan, call_id=call_id, tool=tool, depth=depth, outer_step=self.outer_step,
            inner_step=self.inner_step, result=result, duration_s=duration_s, pose_before=before,
            pose_after=self.pose(),
        ))

    # --- the backend's call listener -------------------------------------------

    def llm_call(self, exchange: LlmExchange) -> None:
        self.add(LlmCall(plan=self.plan, **exchange.model_dump()))
