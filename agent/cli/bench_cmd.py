"""`mcagent bench NAME`: benchmarks that print p50/p95 figures for the README's table."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from agent.bench import bridge_bench, executor_bench, tools_bench
from agent.bench.stats import Figure, table
from agent.bridge import runtime
from agent.cli.parser import add_config_flags, add_scenario_flag, count, load_from_args
from agent.cli.serving import add_server_flags, bot_session
from agent.cli.tools_cmd import add_tools_flags, load_tools
from agent.infospace import Infospace
from agent.tools import Executor


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    benches = p.add_subparsers(dest="bench", required=True, metavar="NAME")
    b = _bench(benches, "bridge", "bridge round trips: no-op, state snapshot, JS vs per-block scans", 200, run_bridge)
    _in_world(b)
    t = _bench(benches, "tools", "world tools through the executor: mc-observe-blocks at radius 4/8/16, mc-status", 200, run_tools)
    _in_world(t, scenario="room")
    add_tools_flags(t)
    _bench(benches, "executor", "execute_action overhead: no-op python tool, a primitive, a note write", 5000, run_executor)


def _bench(benches: argparse._SubParsersAction, name: str, help_text: str, calls: int, handler: Callable) -> argparse.ArgumentParser:
    b = benches.add_parser(name, help=help_text)
    b.add_argument("--calls", type=count, default=calls, help=f"timed calls per operation (default {calls})")
    b.add_argument("--json", action="store_true", help="print the figures as JSON")
    b.set_defaults(handler=handler)
    return b


def _in_world(b: argparse.ArgumentParser, scenario: str | None = None) -> None:
    """Benchmarks that need a bot: the local server on a free port, optionally in a scenario."""
    add_config_flags(b, "--username")
    add_server_flags(b)
    add_scenario_flag(b)
    b.set_defaults(cfg_server__port=0, cfg_server__scenario=scenario)


def _report(args: argparse.Namespace, figures: list[Figure], unit: str = "ms", **extra: object) -> None:
    """A table in `unit`, or JSON (whose fields always say ms: p50_ms, p95_ms)."""
    if args.json:
        print(json.dumps({"figures": [f.model_dump() for f in figures], **extra}, indent=2))
    else:
        print(table(figures, unit=unit))


def run_bridge(args: argparse.Namespace) -> int:
    with bot_session(load_from_args(args).config, args) as session:
        figures, agree = bridge_bench.run(session.bot, runtime.helpers(), calls=args.calls)
    _report(args, figures, scans_agree=agree)
    if not args.json:
        print(f"JS and per-block scans agree: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


def run_tools(args: argparse.Namespace) -> int:
    infospace = Infospace.open(":memory:")
    try:
        with bot_session(load_from_args(args).config, args) as session:
            executor = Executor(load_tools(args), infospace, world=session.bot)
            figures = tools_bench.run(session.bot, executor, calls=args.calls)
    finally:
        infospace.close()
    _report(args, figures)
    return 0


def run_executor(args: argparse.Namespace) -> int:
    _report(args, executor_bench.run(calls=args.calls), unit="us")
    return 0
