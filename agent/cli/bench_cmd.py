"""`mcagent bench NAME`: benchmarks that print p50/p95 figures for the README's table."""

from __future__ import annotations

import argparse
import json

from agent.bench import bridge_bench, executor_bench
from agent.bench.stats import table
from agent.bridge import connect, runtime, shutdown
from agent.cli.parser import add_config_flags, count, load_from_args
from agent.cli.serving import add_server_flags, local_server


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    benches = p.add_subparsers(dest="bench", required=True, metavar="NAME")
    b = benches.add_parser("bridge", help="bridge round trips: no-op, state snapshot, JS vs per-block scans")
    add_config_flags(b, "--username")
    add_server_flags(b)
    b.add_argument("--calls", type=count, default=200, help="timed calls per operation (default 200)")
    b.add_argument("--json", action="store_true", help="print the figures as JSON")
    b.set_defaults(handler=run_bridge)
    e = benches.add_parser("executor", help="execute_action overhead: no-op python tool, a primitive, a note write")
    e.add_argument("--calls", type=count, default=5000, help="timed calls per operation (default 5000)")
    e.add_argument("--json", action="store_true", help="print the figures as JSON")
    e.set_defaults(handler=run_executor)


def run_bridge(args: argparse.Namespace) -> int:
    config = load_from_args(args).config
    try:
        with local_server(config, args, port=0) as info:
            with connect(host=info.host, port=info.port, username=config.username, version=info.version) as bot:
                figures, agree = bridge_bench.run(bot, runtime.helpers(), calls=args.calls)
    finally:
        shutdown()
    if args.json:
        print(json.dumps({"figures": [f.model_dump() for f in figures], "scans_agree": agree}, indent=2))
    else:
        print(table(figures))
        print(f"JS and per-block scans agree: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


def run_executor(args: argparse.Namespace) -> int:
    figures = executor_bench.run(calls=args.calls)
    if args.json:
        print(json.dumps({"unit": "ms", "figures": [f.model_dump() for f in figures]}, indent=2))
    else:
        print(table(figures, unit="us"))
    return 0
