"""`mcagent replay TRACE`: a recorded run as a terminal timeline, or (--live) its tool calls
executed again against a server, with the steps whose results diverge.

The timeline shows outer steps with their methods' inner steps nested under them: tool,
arguments, status in colour, thoughts, the result and timings. --follow watches a run's
trace grow: it waits up to --wait seconds for the file to appear, and ends by itself at the
run's run_end, or when the run that writes it is gone (killed: its lock on the file is free and
no line comes). A killed run's trace is shown up to its last complete line, with a note that the
run ended abnormally; lines that are not events are skipped and named in one warning on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from agent.cli.parser import add_config_flags, add_viewer_flags, add_world_flags, load_from_args, seconds
from agent.cli.serving import add_server_flags, world_options
from agent.cli.tool_flags import add_tools_flags, load_tools
from agent.errors import McAgentError
from agent.infospace import Infospace
from agent.replay.live import RecordedCall, replay_calls
from agent.replay.timeline import Filters, render, timeline_console
from agent.session import bot_session
from agent.tools import Executor
from agent.trace import Follower, Trace, read_trace
from agent.trace.reader import bad_lines_warning, ended_abnormally
from agent.trace.schema import Event, ToolCall, ToolResult
from agent.trace.team import interleaved, team_traces

# Tool types a live replay runs again: the world tools (python) and the primitives. Methods are
# replayed through their inner calls; llm and instruction tools do nothing in the world.
REPLAYED_TYPES = ("python", "primitive")
# A throwaway infospace: a replay must not write into the agent's memory.
SCRATCH_INFOSPACE = ":memory:"
# How long --follow waits for the trace to appear, by default.
FOLLOW_WAIT_S = 30.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="show a run's trace as a timeline, or re-run its tool calls (--live)")
    p.add_argument("trace", type=Path, metavar="TRACE", help="a trace.jsonl that mcagent run or demo wrote, or a team's folder (mcagent run --bots)")
    p.add_argument("--step", type=int, metavar="N", help="only outer step N (with its inner steps)")
    p.add_argument("--method", metavar="NAME", help="only the runs of method NAME")
    p.add_argument("--tools-only", action="store_true", help="only the tool calls, nested ones included")
    p.add_argument("--follow", action="store_true",
                   help="watch a running run's trace until its run_end, or until the run is gone")
    p.add_argument("--wait", type=seconds, default=FOLLOW_WAIT_S, metavar="S",
                   help=f"--follow: how long to wait for TRACE to appear (default {FOLLOW_WAIT_S:g} s)")
    p.add_argument("--live", action="store_true", help="execute the recorded tool calls again against a server")
    p.add_argument("--tolerance", type=float, default=0.5, metavar="BLOCKS",
                   help="--live: how far a position may land from the recorded one (default 0.5)")
    add_config_flags(p, "--port", "--username", "--version")
    add_world_flags(p)
    add_server_flags(p)
    add_tools_flags(p)
    add_viewer_flags(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.live:
        return live(args)
    console = timeline_console()
    filters = Filters(step=args.step, method=args.method, tools_only=args.tools_only)
    if args.trace.is_dir():
        return show_team(args, console, filters)
    if args.follow:
        return follow(args.trace, args.wait, console, filters)
    trace = read_trace(args.trace)
    show(trace.events, console, filters)
    if trace.warning:
        warn(trace.warning)
    if trace.abnormal:
        console.print(f"note: {trace.abnormal}", style="bold red")
    return 0


def show(events: Iterable[Event], console: Console, filters: Filters) -> None:
    for event in events:
        if filters.keep(event):
            for line in render(event):
                console.print(line)


def show_team(args: argparse.Namespace, console: Console, filters: Filters) -> int:
    """A team's folder: every bot's events as one timeline, each line with its bot's name."""
    if args.follow or args.live:
        raise McAgentError(f"{args.trace} is a team's folder: --follow and --live take one bot's trace "
                           f"({args.trace}/<bot>/trace.jsonl)")
    traces = team_traces(args.trace)
    for bot, event in interleaved(traces):
        if filters.keep(event):
            for line in render(event):
                console.print(Text(f"{bot}: ").append_text(line))
    for bot, trace in traces.items():
        if trace.warning:
            warn(f"{bot}: {trace.warning}")
        if trace.abnormal:
            console.print(f"note: {bot}: {trace.abnormal}", style="bold red")
    return 0


def follow(path: Path, wait_s: float, console: Console, filters: Filters) -> int:
    """The trace as its run writes it, until its run_end or until the run is gone."""
    follower = Follower(path)
    if not path.exists():
        print(f"waiting for {path} to appear (at most {wait_s:g} s)", file=sys.stderr, flush=True)
    follower.wait_for_file(wait_s)
    try:
        show(follower.events(), console, filters)
    finally:
        if warning := bad_lines_warning(path, follower.bad_lines):
            warn(warning)
    if not follower.ended:
        cut = follower.truncated_line is not None
        console.print(f"note: {ended_abnormally(cut)}; no run is writing it any more", style="bold red")
    return 0


def warn(warning: str) -> None:
    print(f"mcagent replay: warning: {warning}", file=sys.stderr)


def recorded_calls(trace: Trace) -> list[RecordedCall]:
    """The calls a live replay runs: those of world tools and primitives made by the planner
    itself or by a method's inner loop, in order. A python tool's own nested calls are left to
    it, a method is replayed through its inner calls, and an unfinished call is left out."""
    results = {e.call_id: e.result for e in trace.events if isinstance(e, ToolResult)}
    open_types: dict[int, str | None] = {}  # the calls under way, by id
    chosen = []
    for event in trace.events:
        if isinstance(event, ToolResult):
            open_types.pop(event.call_id, None)
        elif isinstance(event, ToolCall):
            inside_methods_only = all(kind == "method" for kind in open_types.values())
            if event.tool_type in REPLAYED_TYPES and inside_methods_only and event.call_id in results:
                chosen.append(RecordedCall(tool=event.tool or "", args=event.args, result=results[event.call_id]))
            open_types[event.call_id] = event.tool_type
    return chosen


def live(args: argparse.Namespace) -> int:
    trace = read_trace(args.trace)
    if trace.warning:
        warn(trace.warning)
    calls = recorded_calls(trace)
    if not calls:
        raise McAgentError(f"{args.trace} holds no tool calls to replay")
    loaded = load_from_args(args)
    toolbox = load_tools(loaded, args)
    infospace = Infospace.open(SCRATCH_INFOSPACE)
    try:
        with bot_session(loaded.config, world_options(args, loaded.config)) as session:
            print(f"replaying {len(calls)} tool calls from {args.trace} on {session.address}", flush=True)
            report = replay_calls(Executor(toolbox, infospace, world=session.bot), calls, args.tolerance)
    finally:
        infospace.close()
    for divergence in report.divergences:
        print(f"diverged: {divergence}")
    end = report.end_position
    where = end.text() if end is not None else "unknown"
    print(f"replayed {len(calls)} calls: {len(report.divergences)} divergences; the bot ended at {where}")
    if trace.abnormal:
        print(f"note: {trace.abnormal}", file=sys.stderr)
    return 1 if report.divergences else 0
