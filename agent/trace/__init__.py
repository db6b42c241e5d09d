"""Run traces: a versioned schema of typed events (schema.py), written one JSON line per event
as they happen (writer.py), read back with a note when the run ended abnormally (reader.py).
The values other layers hand the trace (an LLM's capabilities, usage and calls, a chat
command) are defined here too (records.py), so this package sits at the bottom: it imports
only agent.errors and itself, and every layer above may import it
(tests/unit/test_import_direction.py holds that).

What joins it to the layers above lives with them: the executor's tool calls go through
agent/planner/tool_trace.py, the bot's pose and events through agent/session/watching.py; the
terminal timeline and the HTML report that read a trace are agent/replay/timeline.py and
agent/replay/report.py.

    writer = TraceWriter(Path("runs/x/trace.jsonl"))
    planner = Planner(backend, toolbox, options, writer)
    trace = read_trace(Path("runs/x/trace.jsonl")); trace.events, trace.abnormal
"""

from agent.trace.reader import Trace, TraceError, follow, read_trace
from agent.trace.schema import SCHEMA_VERSION, Event, InnerLoop, Outcome, Pose, RunSetup
from agent.trace.writer import TraceWriter

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
    "follow",
    "read_trace",
]
