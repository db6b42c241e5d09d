"""`mcagent bench NAME`: benchmarks that print p50/p95 figures for the README's table."""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import get_args

from agent.bench import (bots_bench, bridge_bench, executor_bench, planner_bench, reading_bench, serving_bench,
                         team_bench, tools_bench, world_bench)
from agent.bench.stats import Figure, table
from agent.cli.parser import add_config_flags, add_scenario_flag, count, load_from_args
from agent.cli.serving import add_server_flags, world_options
from agent.cli.tool_flags import add_tools_flags, tool_sources
from agent.config import LoadedConfig, find_config_file
from agent.eval.evaluation import EPISODE_TIMEOUT_S
from agent.eval.suite import load_suite
from agent.eval.tables import text_table
from agent.planner.offer import Catalog
from agent.planner.presets import EXPLORE_SCENARIO
from agent.serving.model_server import ENGINES
from agent.session import WorldOptions


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its figures")
    benches = p.add_subparsers(dest="bench", required=True, metavar="NAME")
    b = _bench(benches, "bridge", "bridge round trips: no-op, state snapshot, JS vs per-block scans", 200, run_bridge)
    _in_world(b)
    t = _bench(benches, "tools", "world tools through the executor: mc-observe-blocks at radius 4/8/16, mc-status, mc-map", 200, run_tools)
    _in_world(t, scenario="room")
    add_tools_flags(t)
    _bench(benches, "executor", "execute_action overhead: no-op python tool, a primitive, a note write", 5000, run_executor)
    p = _bench(benches, "planner", "planner overhead per inner step; explore-area's prefill, LLM calls and wall time",
               480, run_planner)
    _in_world(p, scenario=EXPLORE_SCENARIO)
    add_tools_flags(p)
    p.add_argument("--inner-steps", type=count, default=12,
                   help="steps of the prefill plan, and explore-area's bound (default 12)")
    p.add_argument("--backend", default="llamacpp", metavar="SPEC", help="LLM to measure prefill on (default llamacpp)")
    p.add_argument("--no-prefill", action="store_true", help="only the scripted overhead: no server, no model")
    p.add_argument("--catalog", choices=get_args(Catalog), default="ranked",
                   help="the prefill plan's catalog: ranked for its goal, as a run's (default), or full")
    s = _bench(benches, "serving", "an eval suite's throughput on one model server shared by 1, 2, 4 workers, per engine",
               None, run_serving)
    s.add_argument("--suite", type=Path, default=serving_bench.SUITE, metavar="FILE",
                   help="the suite (default server-config/eval/explore.yaml); its backends give way to each server")
    s.add_argument("--seeds", type=count, default=1, metavar="N", help="seeds per scenario (default 1)")
    s.add_argument("--workers", type=_counts, default=[1, 2, 4], metavar="N,N,...", help="worker counts (default 1,2,4)")
    s.add_argument("--engines", type=_engines, default=list(ENGINES), metavar="E,E",
                   help=f"model servers (default {','.join(ENGINES)})")
    s.add_argument("--threads", type=count, default=None, metavar="N", help="the server's CPU threads (default: every core)")
    s.add_argument("--episode-timeout", type=float, default=EPISODE_TIMEOUT_S, metavar="S",
                   help=f"seconds of an episode's run in the world (set-up not counted) before it is stopped, a failure (default {EPISODE_TIMEOUT_S:g})")
    s.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="where the episodes go (default runs/bench-serving-<time>)")
    s.add_argument("--config", type=Path, metavar="FILE", help="config file for every episode (default ./mcagent.yaml)")
    m = _bench(benches, "bots", "N bots walking on one server: tick rate, state round trip, walks, Node memory; "
               "one bridge for all or one per bot", None, run_bots)
    m.add_argument("--bots", type=_counts, default=[1, 2, 4, 8], metavar="N,N,...", help="bot counts (default 1,2,4,8)")
    m.add_argument("--bridges", type=_bridges, default=list(get_args(bots_bench.Bridges)), metavar="B,B",
                   help="shared (one bridge process), per-bot (one each), or both (default)")
    m.add_argument("--seconds", type=float, default=30.0, metavar="S", help="the measured window per row (default 30)")
    t = _bench(benches, "team", "a team of N bots planning at once, a model slot each: the model's time per step "
               "and episodes an hour", None, run_team)
    t.add_argument("--bots", type=_counts, default=[1, 2, 4], metavar="N,N,...", help="team sizes (default 1,2,4)")
    t.add_argument("--llm", default="llamacpp", metavar="SPEC", help="the model (default llamacpp: a llama-server, "
                   "a slot per bot)")
    t.add_argument("--steps", type=count, default=4, metavar="N", help="outer steps per bot (default 4)")
    t.add_argument("--out", type=Path, default=None, metavar="DIR", help="the teams' traces (default a temp folder)")
    w = _bench(benches, "world", "chunk generation and server start to a standing bot: superflat vs natural", None,
               run_world)
    w.add_argument("--chunks", type=count, default=144, metavar="N", help="chunks timed per generator (default 144)")
    w.add_argument("--runs", type=count, default=5, metavar="N", help="server starts per generator (default 5)")
    w.add_argument("--seed", type=int, default=42, help="world seed (default 42)")
    r = _bench(benches, "reading", "the goal reader over the reading corpus: right, wrong and none for its tune and "
               "test parts and Mindcraft's goals (no server, no model)", None, run_reading)
    r.add_argument("--show", choices=["wrong", "none", "all"], action="append", default=[],
                   help="list the asks with that verdict (repeatable; all: every ask)")
    r.add_argument("--part", choices=list(reading_bench.PARTS), action="append", default=[],
                   help="with --show, only this part (repeatable; default all)")


def _bench(benches: argparse._SubParsersAction, name: str, help_text: str, calls: int | None,
           handler: Callable) -> argparse.ArgumentParser:
    """A benchmark's command; `calls`: its default number of timed calls (None: it times no calls)."""
    b = benches.add_parser(name, help=help_text)
    if calls is not None:
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


def _world(args: argparse.Namespace) -> tuple[LoadedConfig, WorldOptions]:
    """The config and the world the flags give, for a benchmark in the world."""
    loaded = load_from_args(args)
    return loaded, world_options(args, loaded.config)


def _report(args: argparse.Namespace, figures: list[Figure], unit: str = "ms", **extra: object) -> None:
    """A table in `unit`, or JSON (whose fields always say ms: p50_ms, p95_ms)."""
    if args.json:
        print(json.dumps({"figures": [f.model_dump() for f in figures], **extra}, indent=2))
    else:
        print(table(figures, unit=unit))


def run_bridge(args: argparse.Namespace) -> int:
    loaded, world = _world(args)
    figures, agree = bridge_bench.in_world(loaded.config, world, calls=args.calls)
    _report(args, figures, scans_agree=agree)
    if not args.json:
        print(f"JS and per-block scans agree: {'yes' if agree else 'NO'}")
    return 0 if agree else 1


def run_tools(args: argparse.Namespace) -> int:
    loaded, world = _world(args)
    _report(args, tools_bench.in_world(loaded.config, world, tool_sources(loaded, args), calls=args.calls))
    return 0


def run_executor(args: argparse.Namespace) -> int:
    _report(args, executor_bench.run(calls=args.calls), unit="us")
    return 0


def run_world(args: argparse.Namespace) -> int:
    figures = world_bench.chunk_figures(chunks=args.chunks, seed=args.seed)
    figures += world_bench.ready_figures(runs=args.runs, seed=args.seed)
    _report(args, figures)
    return 0


def run_planner(args: argparse.Namespace) -> int:
    overhead = planner_bench.overhead(calls=args.calls)
    run: planner_bench.ExploreRun | None = None
    prefill: list[planner_bench.PrefillRow] = []
    if not args.no_prefill:
        loaded, world = _world(args)
        run, prefill = planner_bench.in_world(loaded.config, world, tool_sources(loaded, args), args.backend,
                                              inner_steps=args.inner_steps, catalog=args.catalog)
    _report(args, [overhead], prefill=[row.model_dump() for row in prefill],
            costs=run.costs.model_dump() if run else None, ended=run.ended if run else None)
    if run and not args.json:
        print(f"\nprefilled tokens per step ({args.backend}, the {args.catalog} catalog in the {EXPLORE_SCENARIO} "
              "scenario, a check that cannot hold):")
        print(planner_bench.prefill_table(prefill) if prefill else "no step called the LLM")
        where = f"{args.backend}, explore-area in the {EXPLORE_SCENARIO} scenario"
        print(f"\nLLM calls and wall time ({where}, one run):")
        print(planner_bench.costs_text(run.costs))
        print(f"the method ended: {run.ended}")
    return 0


def run_reading(args: argparse.Namespace) -> int:
    found = reading_bench.run()
    if args.json:
        print(json.dumps({"parts": [p.model_dump() for p in found.parts], "seconds": found.seconds}, indent=2))
        return 0
    asks = sum(p.asks for p in found.parts)
    print(f"reading corpus: {asks} asks read in {found.seconds:.1f} s")
    print(reading_bench.table(found))
    verdicts = {"right", "wrong", "none"} if "all" in args.show else set(args.show)
    if verdicts:
        print()
        print(reading_bench.listing(found, verdicts, set(args.part or reading_bench.PARTS)))
    return 0


def _counts(text: str) -> list[int]:
    return [count(part) for part in text.split(",")]


def _engines(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    unknown = [name for name in names if name not in ENGINES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown engine {unknown[0]!r} (accepted: {', '.join(ENGINES)})")
    return names


def _bridges(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",")]
    accepted = get_args(bots_bench.Bridges)
    unknown = [name for name in names if name not in accepted]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown bridges {unknown[0]!r} (accepted: {', '.join(accepted)})")
    return names


def run_bots(args: argparse.Namespace) -> int:
    found = []
    for n in args.bots:
        for bridges in args.bridges:
            found.append(bots_bench.row(n, bridges, args.seconds))
            if not args.json:
                r = found[-1]
                print(f"{n} bot(s), {bridges}: {r.ticks_per_s:.1f} ticks/s, state p50 {r.round_trip.p50_ms:.1f} ms "
                      f"p95 {r.round_trip.p95_ms:.1f} ms", flush=True)
    print(json.dumps([r.model_dump() for r in found], indent=2) if args.json else "\n" + bots_bench.table(found))
    return 0


def run_team(args: argparse.Namespace) -> int:
    found = []
    with tempfile.TemporaryDirectory(prefix="mcagent-bench-team-") as temp:
        out = args.out or Path(temp)
        for n in args.bots:
            found.append(team_bench.row(n, args.llm, args.steps, out))
            if not args.json:
                r = found[-1]
                print(f"{n} bot(s): {r.steps} steps, LLM per step p50 {r.step_llm.p50_ms / 1000:.2f} s "
                      f"p95 {r.step_llm.p95_ms / 1000:.2f} s, {r.episodes_per_hour:.0f} episodes/hour", flush=True)
    print(json.dumps([r.model_dump() for r in found], indent=2) if args.json else "\n" + team_bench.table(found))
    return 0


def run_serving(args: argparse.Namespace) -> int:
    suite, tasks = load_suite(args.suite)
    config = find_config_file(args.config)
    out = args.out or Path("runs") / f"bench-serving-{time.strftime('%Y%m%d-%H%M%S')}"
    if args.out is None:
        print(f"episodes in {out}", flush=True)

    def said(row: serving_bench.ServingRow) -> None:
        if not args.json:
            print(f"{row.engine}, {row.rate.workers} worker(s): {row.rate.text()}", flush=True)

    rows = serving_bench.measure(suite, tasks, args.engines, args.workers, seeds=args.seeds, out=out,
                                 threads=args.threads, timeout_s=args.episode_timeout,
                                 config=config.resolve() if config else None, on_row=said)
    if args.json:
        print(json.dumps([row.model_dump() for row in rows], indent=2))
    else:
        print()
        print(text_table(serving_bench.HEAD, serving_bench.table_rows(rows)))
    return 1 if any(row.errors for row in rows) else 0
