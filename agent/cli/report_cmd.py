"""`mcagent report TRACE -o report.html`: a run as one self-contained HTML page: the summary,
a top-down map of the bot's path with the steps and the blocks it observed, one row per
step, and where the time went. Lines of the trace that are not events are skipped, named in one
warning on stderr and in the page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agent.replay.report import report_html
from agent.trace import read_trace


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="write a run's trace as one self-contained HTML report")
    p.add_argument("trace", type=Path, metavar="TRACE", help="a trace.jsonl that mcagent run or demo wrote")
    p.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="where to write the report (default: report.html next to the trace)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    trace = read_trace(args.trace)
    if trace.warning:
        print(f"mcagent report: warning: {trace.warning}", file=sys.stderr)
    output = args.output or args.trace.with_name("report.html")
    output.write_text(report_html(trace), encoding="utf-8")
    print(f"report: {output} ({len(trace.events)} events)")
    if trace.abnormal:
        print(f"note: {trace.abnormal}")
    return 0
