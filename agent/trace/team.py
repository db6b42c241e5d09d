"""A team's traces read as one: each bot's `<folder>/<bot>/trace.jsonl` (agent/session/team_run.py),
their events merged in the order they happened, each with the bot that wrote it."""

from __future__ import annotations

import heapq
from pathlib import Path

from agent.trace.reader import Trace, TraceError, read_trace
from agent.trace.schema import Event

TRACE_FILE = "trace.jsonl"


def team_traces(folder: Path) -> dict[str, Trace]:
    """Each bot's trace in `folder`, by the bot's name (its sub-folder's)."""
    paths = sorted(folder.glob(f"*/{TRACE_FILE}"))
    if not paths:
        raise TraceError(f"{folder} holds no team's traces (<bot>/{TRACE_FILE}); give a trace file or a team's folder")
    return {path.parent.name: read_trace(path) for path in paths}


def interleaved(traces: dict[str, Trace]) -> list[tuple[str, Event]]:
    """Every bot's events in time order (a bot's own stay in their order), each with its bot."""
    streams = [[(e.t, n, bot, e) for e in trace.events] for n, (bot, trace) in enumerate(traces.items())]
    return [(bot, event) for _, _, bot, event in heapq.merge(*streams, key=lambda row: (row[0], row[1]))]
