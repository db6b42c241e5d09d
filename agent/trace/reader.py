"""Reading a trace back: typed events, and whether the run ended normally.

A killed run leaves its trace without `run_end`, and perhaps with half a last line: the
reader keeps every complete line, and says what is missing instead of failing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from agent.errors import McAgentError
from agent.trace.schema import EVENT, Event, RunEnd, RunStart, ToolCall, ToolResult

# How often --follow looks for new lines.
FOLLOW_POLL_S = 0.2


class TraceError(McAgentError):
    """The file is not a trace: missing, or a complete line that is not an event of this schema."""


@dataclass(frozen=True)
class Trace:
    path: Path
    events: list[Event]
    truncated_line: str | None  # the incomplete last line of a killed run, if it left one

    @property
    def start(self) -> RunStart | None:
        return next((e for e in self.events if isinstance(e, RunStart) and e.plan == 0), None)

    @property
    def end(self) -> RunEnd | None:
        return next((e for e in self.events if isinstance(e, RunEnd) and e.plan == 0), None)

    @property
    def abnormal(self) -> str | None:
        """Why the run did not end normally, or None when it did."""
        if self.end is not None:
            return None
        cut = " and its last line is cut off" if self.truncated_line else ""
        return f"the run ended abnormally: the trace has no run_end{cut} (killed, crashed, or still running)"

    def calls(self) -> list[tuple[ToolCall, ToolResult | None]]:
        """Every tool call with its result (None for a call the run never finished), in call order."""
        results = {e.call_id: e for e in self.events if isinstance(e, ToolResult)}
        return [(e, results.get(e.call_id)) for e in self.events if isinstance(e, ToolCall)]


def parse_line(line: str, path: Path, number: int) -> Event:
    try:
        return EVENT.validate_json(line)
    except ValidationError as e:
        problem = e.errors()[0]
        where = ".".join(str(p) for p in problem["loc"])
        raise TraceError(f"{path}:{number}: not a trace event (schema 1): {where}: {problem['msg']}") from None


def read_trace(path: Path) -> Trace:
    """Every complete event of the trace at `path`. A last line without its newline is a line the
    run was writing when it died: it is kept aside, unparsed, when it does not parse."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise TraceError(f"cannot read the trace {path}: {e.strerror}") from None
    lines = text.split("\n")
    last = lines.pop()  # "" when the file ends with a newline, as a complete trace does
    events = [parse_line(line, path, n) for n, line in enumerate(lines, 1) if line.strip()]
    truncated = None
    if last.strip():
        try:
            events.append(EVENT.validate_json(last))
        except ValidationError:
            truncated = last
    return Trace(path, events, truncated)


def follow(path: Path, *, poll_s: float = FOLLOW_POLL_S) -> Iterator[Event]:
    """The trace's events as they are written, until the main plan's run_end (or Ctrl-C).
    Waits for the file to appear; yields only complete lines."""
    while not path.exists():
        time.sleep(poll_s)
    with path.open(encoding="utf-8") as f:
        pending, number = "", 0
        while True:
            chunk = f.readline()
            if not chunk:
                time.sleep(poll_s)
                continue
            pending += chunk
            if not pending.endswith("\n"):
                continue  # the writer is mid-line: wait for the rest
            number += 1
            line, pending = pending, ""
            if not line.strip():
                continue
            event = parse_line(line, path, number)
            yield event
            if isinstance(event, RunEnd) and event.plan == 0:
                return
