"""Reading a trace back: typed events, the lines that are not events, and whether the run ended
normally.

A killed run leaves its trace without `run_end`, and perhaps with half a last line: the
reader keeps every complete line, and says what is missing instead of failing. A damaged
trace reads as far as it can: every good event, and each bad line by number and why (not
JSON, an unknown event, a field this schema does not accept); bytes that are not UTF-8 are
replaced. Only a file with no event at all is an error.

The writer holds an exclusive flock on the file while its run lives (writer.py): a shared
lock that is granted at once means no run is writing it any more.
"""

from __future__ import annotations

import fcntl
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from pydantic import ValidationError

from agent.errors import McAgentError
from agent.trace.schema import EVENT, Event, RunEnd, RunStart, ToolCall, ToolResult

# How often --follow looks for new lines.
FOLLOW_POLL_S = 0.2
# How long --follow waits, once no run holds the trace's lock and no line comes, before it
# ends: the writer takes the lock an instant after it creates the file.
WRITER_GONE_S = 1.0
# A warning names this many bad lines, then counts the rest; a reason is clipped to WHY_CHARS.
BAD_LINES_NAMED = 5
WHY_CHARS = 80


class TraceError(McAgentError):
    """The trace cannot be read: missing, unreadable, or without a single event of this schema."""


@dataclass(frozen=True)
class BadLine:
    """A complete line that is not an event of this schema: its number from 1, and why."""

    number: int
    why: str

    def __str__(self) -> str:
        return f"line {self.number} ({self.why})"


def bad_lines_warning(path: Path, bad: Sequence[BadLine]) -> str | None:
    """One line naming the bad lines, the first few by number and why; None when there are none."""
    return f"{path}: {_bad_lines(bad)} skipped: {_named(bad)}" if bad else None


def _bad_lines(bad: Sequence[BadLine]) -> str:
    return f"{len(bad)} bad line{'s' if len(bad) > 1 else ''}"


def _named(bad: Sequence[BadLine]) -> str:
    named = ", ".join(str(line) for line in bad[:BAD_LINES_NAMED])
    return named + (f", and {len(bad) - BAD_LINES_NAMED} more" if len(bad) > BAD_LINES_NAMED else "")


def ended_abnormally(cut: bool) -> str:
    """What a trace says when no run writes it any more and it has no run_end."""
    cut_off = " and its last line is cut off" if cut else ""
    return f"the run ended abnormally: the trace has no run_end{cut_off} (killed or crashed)"


@dataclass(frozen=True)
class Trace:
    path: Path
    events: list[Event]
    truncated_line: str | None  # the incomplete last line of a killed run, if it left one
    bad_lines: list[BadLine] = field(default_factory=list)
    being_written: bool = False  # a run held the file's lock when it was read

    @property
    def start(self) -> RunStart | None:
        return next((e for e in self.events if isinstance(e, RunStart) and e.plan == 0), None)

    @property
    def end(self) -> RunEnd | None:
        return next((e for e in self.events if isinstance(e, RunEnd) and e.plan == 0), None)

    @property
    def abnormal(self) -> str | None:
        """Why the trace has no end, or None when it has one."""
        if self.end is not None:
            return None
        if self.being_written:
            return "the run is still writing this trace: it has no run_end yet"
        return ended_abnormally(self.truncated_line is not None)

    @property
    def warning(self) -> str | None:
        return bad_lines_warning(self.path, self.bad_lines)

    def calls(self) -> list[tuple[ToolCall, ToolResult | None]]:
        """Every tool call with its result (None for a call the run never finished), in call order."""
        results = {e.call_id: e for e in self.events if isinstance(e, ToolResult)}
        return [(e, results.get(e.call_id)) for e in self.events if isinstance(e, ToolCall)]


def why_not_an_event(error: ValidationError) -> str:
    """The first problem pydantic found, in a few words: not JSON, unknown event 'foo', ..."""
    problem = error.errors()[0]
    kind, loc = problem["type"], problem["loc"]
    if kind == "json_invalid":
        why = "not JSON"
    elif kind == "dict_type":
        why = "not a JSON object"
    elif kind == "union_tag_not_found":
        why = "no event field"
    elif kind == "union_tag_invalid":
        why = f"unknown event {problem.get('ctx', {}).get('tag')!r}"
    else:
        where = ".".join(str(part) for part in loc[1:])
        why = f"not a valid {loc[0]}: {where}: {problem['msg']}" if loc else problem["msg"]
    return why if len(why) <= WHY_CHARS else why[: WHY_CHARS - 1] + "…"


class _Lines:
    """Turns a trace's raw lines into events, keeping the bad ones and a cut-off last line aside."""

    def __init__(self) -> None:
        self.bad_lines: list[BadLine] = []
        self.truncated_line: str | None = None

    def event(self, raw: bytes, number: int, *, complete: bool) -> Event | None:
        """The event on a line; None for a blank or bad one. A last line without its newline is
        the one the run was writing when it died: when it does not parse it is cut off, not bad."""
        text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        if not text.strip():
            return None
        try:
            return EVENT.validate_json(text)
        except ValidationError as e:
            if complete:
                self.bad_lines.append(BadLine(number, why_not_an_event(e)))
            else:
                self.truncated_line = text
            return None


def writer_alive(file: IO[bytes]) -> bool:
    """Whether a run holds the trace's lock: the writer's exclusive lock refuses our shared one."""
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False  # a filesystem without locks: no writer can be told apart
    fcntl.flock(file.fileno(), fcntl.LOCK_UN)
    return False


def read_trace(path: Path) -> Trace:
    """Every event of the trace at `path`, the bad lines by number, and whether a run still writes it."""
    try:
        with path.open("rb") as f:
            data = f.read()
            writing = writer_alive(f)
    except OSError as e:
        raise TraceError(f"cannot read the trace {path}: {e.strerror}") from None
    *complete, last = data.split(b"\n")  # last: b"" when the file ends with a newline, as it should
    lines = _Lines()
    events = [e for n, raw in enumerate(complete, 1) if (e := lines.event(raw, n, complete=True)) is not None]
    if (cut := lines.event(last, len(complete) + 1, complete=False)) is not None:
        events.append(cut)
    if not events:
        raise TraceError(f"{path} holds no trace event: {_nothing_read(lines)}")
    return Trace(path, events, lines.truncated_line, lines.bad_lines, writing)


def _nothing_read(lines: _Lines) -> str:
    if lines.bad_lines:
        return f"{_bad_lines(lines.bad_lines)}: {_named(lines.bad_lines)}"
    return "only a cut-off line" if lines.truncated_line is not None else "it is empty"


class Follower:
    """A trace read while its run writes it: each event once its line is complete, until the main
    plan's run_end, or until the run is gone (no one holds the lock and no line comes). What was
    bad is kept in `bad_lines`; `ended` says whether run_end came."""

    def __init__(self, path: Path, poll_s: float = FOLLOW_POLL_S):
        self.path = path
        self.poll_s = poll_s
        self.ended = False
        self._lines = _Lines()

    @property
    def bad_lines(self) -> list[BadLine]:
        return self._lines.bad_lines

    @property
    def truncated_line(self) -> str | None:
        return self._lines.truncated_line

    def wait_for_file(self, wait_s: float) -> None:
        """Returns once the file exists; a TraceError after `wait_s` seconds without it."""
        deadline = time.monotonic() + wait_s
        while not self.path.exists():
            if time.monotonic() >= deadline:
                raise TraceError(f"{self.path} did not appear within {wait_s:g} s: is a run writing it?")
            time.sleep(self.poll_s)

    def events(self) -> Iterator[Event]:
        try:
            f = self.path.open("rb")
        except OSError as e:
            raise TraceError(f"cannot read the trace {self.path}: {e.strerror}") from None
        with f:
            for number, (raw, complete) in enumerate(self._raw_lines(f), 1):
                event = self._lines.event(raw, number, complete=complete)
                if event is None:
                    continue
                yield event
                if isinstance(event, RunEnd) and event.plan == 0:
                    self.ended = True
                    return

    def _raw_lines(self, f: IO[bytes]) -> Iterator[tuple[bytes, bool]]:
        """Each complete line as it comes; once the writer is gone, the unfinished one it left, if any."""
        pending, quiet_since = b"", None
        while True:
            chunk = f.readline()
            if chunk:
                pending, quiet_since = pending + chunk, None
                if pending.endswith(b"\n"):
                    yield pending, True
                    pending = b""
                continue  # else the writer is mid-line: wait for the rest
            if writer_alive(f):
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= WRITER_GONE_S:
                if pending:
                    yield pending, False
                return
            time.sleep(self.poll_s)
