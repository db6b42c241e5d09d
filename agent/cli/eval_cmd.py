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
from pathlib import Path

from agent.cli.parser import count
from agent.cli.tools_cmd import add_catalog_flags
from agent.errors import ConfigError
from agent.eval.compare import compare, load_rows
from agent.eval.evaluation import EPISODE_TIMEOUT_S, EvalRequest, EvalStart, Evaluation, evaluate
from agent.eval.ray_runner import ADDRESSES, LOCAL
from agent.eval.records import EPISODES_FILE, EpisodeRecord
from agent.eval.tables import build_lines, costs_text, terminal_table


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
    p.add_argument("--resume", action="store_true",
                   help="with --out DIR: run only the episodes DIR has no record of (an eval stopped partway), "
                        "then summarize them all")
    p.add_argument("--config", type=Path, metavar="FILE", help="config file for every episode (default ./mcagent.yaml)")
    p.add_argument("--episode-timeout", type=float, default=EPISODE_TIMEOUT_S, metavar="S",
                   help=f"seconds of an episode's run in the world (set-up not counted) before it is stopped, a failure (default {EPISODE_TIMEOUT_S:g})")
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
    request = EvalRequest(suite=args.suite, llms=args.llm, seeds=args.seeds, workers=args.workers, ray=args.ray,
                          out=args.out, config=args.config, episode_timeout_s=args.episode_timeout, tools=args.tools,
                          catalog=args.catalog, resume=args.resume)
    progress = Progress()
    return report(evaluate(request, on_start=progress.start, on_episode=progress))


class Progress:
    """What is about to run, then a line per finished episode: what it was, how it ended, how many
    are left and when they should be done (by the mean episode time so far)."""

    def __init__(self) -> None:
        self.total, self.started, self.successes = 0, time.monotonic(), 0

    def start(self, start: EvalStart) -> None:
        shape = f"{start.scenarios} scenarios x {start.backends} backends x {start.seeds} seeds"
        how = f"({shape}), {start.workers} at a time" + (f" as Ray tasks ({start.ray})" if start.ray else "")
        kept = f" ({start.recorded} recorded before, not run again)" if start.recorded else ""
        print(f"eval {start.suite}: {start.episodes} episodes {how}; results in {start.out}{kept}", flush=True)
        for task in start.not_run:
            print(f"not run: {task.name}: {task.reason}", flush=True)
        self.total, self.started = start.episodes, time.monotonic()

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


def report(evaluation: Evaluation) -> int:
    out = evaluation.out
    print(terminal_table(evaluation.rows))
    print()
    print(costs_text(evaluation.rows, evaluation.records))
    print()
    for line in build_lines(evaluation.records):
        print(line)
    print(evaluation.rate.text())
    print(f"episodes: {out / EPISODES_FILE}\nsummary: {out / 'summary.md'}, {out / 'summary.html'}")
    errors, false, refuted = evaluation.faults()
    if errors or false or refuted:
        print(f"mcagent eval: {errors} episode(s) could not run, {false} false success(es), {refuted} refuted "
              f"method outcome(s)", file=sys.stderr)
        return 1
    return 0
