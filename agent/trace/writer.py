"""Writing a trace: each event appended as one JSON line and flushed at once, so a crash loses
at most the line being written. The writer is also the LLM backend's call listener; the
executor's tool calls (agent/planner/tool_trace.py) and the bot's pose and events
(agent/session/watching.py) reach it through adapters above, so it imports neither.

A trace belongs to one run: the file is created exclusively (an existing one is never
overwritten), and the writer holds an exclusive flock on it while it is open. The OS drops
that lock when the process ends, however it ends (SIGKILL too), so a reader can tell a run
still writing from one that is gone (reader.py). The file is opened close-on-exec, so the
child processes a run starts (the Node bridge, the local server) do not keep the lock alive.
"""

from __future__ import annotations

import fcntl
import json
import threading
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from pydantic_core import PydanticSerializationError

from agent.trace.reader import TraceError
from agent.trace.records import LlmExchange
from agent.trace.schema import Event, LlmCall, Pose, ToolCall, ToolResult

PoseSource = Callable[[], "Pose | None"]
# The events a writer keeps in memory: enough for a status line, and a run's memory stays flat
# however long it runs. The whole run is in the file.
RECENT_EVENTS = 256


class TraceWriter:
    """Appends each event of a run to the JSONL file at once, and keeps the last RECENT_EVENTS in memory.

    `on_event` (and whatever `subscribe` adds) is told of each event after it is written. `pose` (set by whoever attaches a
    world) gives the bot's pose around tool calls. The planner sets `plan`, `outer_step` and
    `inner_step`, which stamp the tool calls made meanwhile. Thread-safe: bot events arrive
    on the bridge's callback thread.
    """

    def __init__(self, path: Path | None = None, on_event: Callable[[Event], None] | None = None):
        self.path = path
        # Appended under the lock; from another thread read a copy through `events`.
        self.recent_events: deque[Event] = deque(maxlen=RECENT_EVENTS)
        self.pose: PoseSource = lambda: None
        self.plan, self.outer_step, self.inner_step = 0, 0, None
        self._listeners = [on_event] if on_event is not None else []
        self._lock = threading.Lock()
        self._open: list[tuple[int, Pose | None]] = []  # the tool calls under way: (call_id, pose before)
        self._calls = 0
        self._file: IO[str] | None = None
        if path is not None:
            self._file = _create_locked(path)

    @property
    def events(self) -> list[Event]:
        """The recent events as a list (at most RECENT_EVENTS, oldest first): all of a short run,
        as tests and the planner's status line read them. The file has every event."""
        with self._lock:
            return list(self.recent_events)

    def add(self, event: Event) -> None:
        with self._lock:
            self.recent_events.append(event)
            if self._file is not None:
                self._file.write(_line(event) + "\n")
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


def _create_locked(path: Path) -> IO[str]:
    """The trace file, new, with this process's exclusive lock on it. The lock is taken blocking:
    a reader's probe holds it only for an instant."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        file = path.open("x", encoding="utf-8", errors="replace")
    except FileExistsError:
        raise TraceError(f"{path} already exists, and a trace is never overwritten: "
                         "give the run another trace path, or move that file away") from None
    except OSError as e:
        raise TraceError(f"cannot create the trace {path}: {e.strerror}") from None
    fcntl.flock(file.fileno(), fcntl.LOCK_EX)
    return file


def _line(event: Event) -> str:
    """The event as one JSON line. Text that UTF-8 cannot hold (a lone surrogate from a backend or
    the game) becomes "?" in the file rather than costing the event, or the run."""
    try:
        return event.model_dump_json()
    except PydanticSerializationError:
        return json.dumps(event.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
