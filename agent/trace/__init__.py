"""Run traces: a versioned schema of typed events (schema.py), written one JSON line per event
as they happen (writer.py), read back with a note when the run ended abnormally (reader.py).

    writer = TraceWriter(Path("runs/x/trace.jsonl"))
    planner = Planner(backend, toolbox, options, writer)
    trace = read_trace(Path("runs/x/trace.jsonl")); trace.events, trace.abnormal
"""

from agent.trace.reader import Trace, TraceError, follow, read_trace
from agent.trace.schema import SCHEMA_VERSION, Event, InnerLoop, Outcome, Pose, RunSetup
from agent.trace.writer import TraceWriter, bot_pose

__all__ = [
    "SCHEMA_VERSION",
    "Event",
    "InnerLoop",
    "Outcome",
    "Pose",
    "RunSetup",
    "Trace",
    "TraceError",
    "TraceWriter",
    "bot_pose",
    "follow",
    "read_trace",
]
