"""`mcagent eval SUITE.yaml`: every (scenario, seed, backend) episode of a suite, each on its own
local server, judged by the scenario's check; `mcagent eval --compare A B` sets two results
side by side. Episodes run on local worker processes (--workers N), or with --ray as Ray tasks
on a cluster (agent/eval/ray_runner.py); OUT is the same either way.

Writes OUT/episodes.jsonl (a line per episode as it ends), OUT/summary.md and
OUT/summary.html, and a folder per episode with its trace and log; prints a progress line per
episode, the summary table and the costs table (LLM calls per inner step, where the planner's
time went, who decided, refuted method outcomes). Exit code 0 when every episode ran, no success
was false and no method ended in an outcome whose checked condition was false; 1 otherwise, 2
for bad input (nothing is started then), 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from agent.cli.parser import count
from agent.cli.tools_cmd import add_catalog_flags
from agent.config import find_config_file, load_config
from agent.errors import ConfigError
from agent.eval.compare import compare, load_rows
from agent.eval.episode import EpisodeSpec, core_share, episode_specs, episode_tool_sources
from agent.eval.ray_runner import ADDRESSES, CPUS_PER_EPISODE, LOCAL, ray_cluster, run_on_ray, slots
from agent.eval.records import EPISODES_FILE, EpisodeRecord
from agent.eval.runner import run_all
from agent.eval.stats import summarize
from agent.eval.mindcraft import is_task_file, load_task_file
from agent.eval.suite import Suite, Task, load_suite
from agent.eval.tables import costs_text, html_page, markdown_table, terminal_table
from agent.eval.throughput import THROUGHPUT_FILE, Throughput, throughput
from agent.diagnostics.backend_probe import probe_backend
from agent.tools import load_toolbox
from agent.trace import new_folder_kept_if_used

# An episode that runs this long is ended and recorded as an error.
EPISODE_TIMEOUT_S = 900.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="run a suite of scenarios with goal checks and print success rates")
    p.add_argument("suite", nargs="?", type=Path,
                   help="the suite file, e.g. server-config/eval/explore.yaml, or a Mindcraft task file (.json)")
    p.add_argument("--llm", action="append", metavar="SPEC", help="a backend to evaluate (repeatable; default: the suite's)")
    p.add_argument("--seeds", type=count, metavar="N", help="seeds 0..N-1 per scenario and backend (default: the suite's)")
    p.add_argument("--workers", type=count, metavar="N",
                   help="episodes at once (default 1; with --ray, as many as the cluster's CPUs hold)")
    p.add_argument("--ray", nargs="?", const=LOCAL, metavar="ADDRESS",
                   help=f"run each episode as a Ray task: on the cluster at ADDRESS ({ADDRESSES}); with no "
                        "address, on a Ray instance of this machine's own (needs mcagent[ray])")
    p.add_argument("--out", type=Path, metavar="DIR", help="results folder (default runs/eval-<suite>-<time>)")
    p.add_argument("--config", type=Path, metavar="FILE", help="config file for every episode (default ./mcagent.yaml)")
    p.add_argument("--episode-timeout", type=float, default=EPISODE_TIMEOUT_S, metavar="S",
                   help=f"seconds before an episode is ended as an error (default {EPISODE_TIMEOUT_S:g})")
    add_catalog_flags(p)
    p.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"), help="show two results folders side by side")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.compare:
        a, b = args.compare
        print(compare(load_rows(a), load_rows(b), labels=(str(a), str(b))))
        return 0
    if args.suite is None:
        if args.ray and Path(args.ray).is_file():
            raise ConfigError(f"eval: --ray took {args.ray} for its address; put the suite file before --ray")
        raise ConfigError("name a suite file (e.g. server-config/eval/explore.yaml), or --compare A B")
    # A Mindcraft task file (JSON) is read as it is written; anything else is a suite.
    suite, tasks = load_task_file(args.suite) if is_task_file(args.suite) else load_suite(args.suite)
    suite = narrowed(suite, args.tools, args.catalog)
    llms = args.llm or suite.llm
    if not llms:
        raise ConfigError(f"eval: {args.suite} names no backend (llm: [...]) and no --llm was given")
    check_tools(suite.planner.tools or [], args.config)
    for llm in llms:
        probe_backend(llm)
    if args.out is not None:
        if (args.out / EPISODES_FILE).exists():
            raise ConfigError(f"eval: {args.out} already holds results; choose another --out")
        return run_episodes(args, suite, tasks, llms, args.out)
    # A folder of its own, as a run's (two evals started in the same second get -2), gone if unused.
    with new_folder_kept_if_used(Path("runs"), f"eval-{suite.name}-{time.strftime('%Y%m%d-%H%M%S')}") as out:
        return run_episodes(args, suite, tasks, llms, out)


def check_tools(names: list[str], config: Path | None) -> None:
    """Every tool the suite or --tools names exists where the episodes load their tools from."""
    toolbox = load_toolbox(episode_tool_sources(load_config(config)))
    unknown = [name for name in names if name not in toolbox.tools]
    if unknown:
        raise ConfigError(f"eval: no tool named {unknown[0]!r} (tools: {', '.join(sorted(toolbox.tools))})")


def narrowed(suite: Suite, tools: list[str] | None, catalog: str | None) -> Suite:
    """The suite with the catalog the flags give instead of its own (an ablation); as it is without them."""
    update = {key: value for key, value in (("tools", tools), ("catalog", catalog)) if value is not None}
    if not update:
        return suite
    if catalog is not None and tools is None:
        update["tools"] = None  # --catalog replaces a suite's named tools
    return suite.model_copy(update={"planner": suite.planner.model_copy(update=update)})


def run_episodes(args: argparse.Namespace, suite: Suite, tasks: list[Task], llms: list[str], out: Path) -> int:
    """On local worker processes, or with --ray as Ray tasks; then the report."""
    seeds = args.seeds or suite.seeds
    shape = f"{len(tasks)} scenarios x {len(llms)} backends x {seeds} seeds"
    config = find_config_file(args.config)
    config = config.resolve() if config else None  # a Ray node reads it by this path
    if args.ray is None:
        workers = args.workers or 1
        specs = episode_specs(suite, tasks, llms, seeds, out, config, threads=core_share(workers))
        return evaluate(suite, specs, out, workers, f"({shape}), {workers} at a time",
                        lambda progress: run_all(specs, out, workers, args.episode_timeout, progress))
    with ray_cluster(args.ray) as ray:
        specs = episode_specs(suite, tasks, llms, seeds, out, config, threads=CPUS_PER_EPISODE)
        workers = slots(ray, args.workers, len(specs))
        return evaluate(suite, specs, out, workers, f"({shape}), {workers} at a time as Ray tasks ({args.ray})",
                        lambda progress: run_on_ray(ray, specs, out, workers, args.episode_timeout, progress))


def evaluate(suite: Suite, specs: list[EpisodeSpec], out: Path, workers: int, how: str,
             run_them: Callable[[Progress], list[EpisodeRecord]]) -> int:
    """Runs the episodes with a progress line each, then reports them with the run's throughput."""
    print(f"eval {suite.name}: {len(specs)} episodes {how}; results in {out}", flush=True)
    for task in suite.not_run:
        print(f"not run: {task.name}: {task.reason}", flush=True)
    started = time.monotonic()
    records = run_them(Progress(len(specs)))
    return report(suite, records, out, throughput(records, time.monotonic() - started, workers))


class Progress:
    """A line per finished episode: what it was, how it ended, how many are left and when they
    should be done (by the mean episode time so far)."""

    def __init__(self, total: int):
        self.total, self.started, self.successes = total, time.monotonic(), 0

    def __call__(self, record: EpisodeRecord, done: int) -> None:
        self.successes += record.success
        elapsed = time.monotonic() - self.started
        eta = elapsed / done * (self.total - done)
        print(f"[{done}/{self.total}] {record.scenario} seed {record.seed} {record.llm}: {record.outcome} "
              f"in {record.wall_s:.1f} s; {self.successes} verified so far; elapsed {_clock(elapsed)}, "
              f"ETA {_clock(eta)}", flush=True)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s"


def report(suite: Suite, records: list[EpisodeRecord], out: Path, rate: Throughput) -> int:
    rows = summarize(records)
    left_out = "".join(f"\n- not run: {t.name}: {t.reason}" for t in suite.not_run)
    (out / "summary.md").write_text(f"{markdown_table(rows)}\n{left_out}\n\n{rate.text()}\n", encoding="utf-8")
    (out / "summary.html").write_text(html_page(rows, records, f"mcagent eval: {suite.name}"), encoding="utf-8")
    (out / THROUGHPUT_FILE).write_text(rate.model_dump_json(indent=2) + "\n", encoding="utf-8")
    print(terminal_table(rows))
    print()
    print(costs_text(rows, records))
    print()
    print(rate.text())
    print(f"episodes: {out / EPISODES_FILE}\nsummary: {out / 'summary.md'}, {out / 'summary.html'}")
    errors = sum(r.outcome == "error" for r in records)
    false = sum(r.success and r.final_check is False for r in records)
    refuted = sum(len(r.refuted_outcomes) for r in records)
    if errors or false or refuted:
        print(f"mcagent eval: {errors} episode(s) could not run, {false} false success(es), {refuted} refuted "
              f"method outcome(s)", file=sys.stderr)
        return 1
    return 0
