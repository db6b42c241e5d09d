"""Run traces: a versioned schema of typed events (schema.py), written one JSON line per event
as they happen into a file of the run's own, locked while the run lives (writer.py; a run's
folder: folders.py), read back with a note when the run ended abnormally and the lines that
are not events named (reader.py), or followed as they are written (reader.Follower).
The values other layers hand the trace (an LLM's capabilities, usage and calls, a chat
command) are defined here too (records.py), so this package sits at the bottom: it imports
only agent.errors and itself, and every layer above may import it
(tests/unit/test_import_direction.py holds that).

What joins it to the layers above lives with them: the executor's tool calls go through
agent/planner/tool_trace.py, the bot's pose and events through agent/session/watching.py; the
terminal timeline and the HTML report that read a trace are agent/replay/timeline.py and
agent/replay/report.py.

    folder = new_run_folder(Path("runs"), "20260101-120000-explore")  # -2, -3, ... when taken
    with new_folder_kept_if_used(Path("runs"), name) as folder: ...     # gone again if left empty
    writer = TraceWriter(folder / "trace.jsonl")
    planner = Planner(backend, toolbox, options, writer)
    trace = read_trace(folder / "trace.jsonl"); trace.events, trace.abnormal, trace.warning
"""

from agent.trace.folders import new_folder_kept_if_used, new_run_folder
from agent.trace.reader import BadLine, Follower, Trace, TraceError, read_trace
from agent.trace.schema import SCHEMA_VERSION, Event, InnerLoop, Outcome, Pose, RunSetup
from agent.trace.writer import TraceWriter

__all__ = [
    "SCHEMA_VERSION",
    "BadLine",
    "Event",
    "Follower",
    "InnerLoop",
    "Outcome",
    "Pose",
    "RunSetup",
    "Trace",
    "TraceError",
    "TraceWriter",
    "new_folder_kept_if_used",
    "new_run_folder",
    "read_trace",
]
