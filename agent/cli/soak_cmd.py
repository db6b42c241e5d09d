"""`mcagent soak`: episodes in one process for N minutes, sampled each minute; a table and a verdict.

Exit 0 when the memory of Python and Node stayed flat after the warm-up, 1 with the reason
when it did not (agent/soak/sampling.py says the rule)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from agent.cli.parser import add_config_flags, load_from_args
from agent.cli.tool_flags import add_tools_flags, tool_sources
from agent.errors import McAgentError
from agent.paths import REPO_ROOT
from agent.server import load_scenario
from agent.soak import Sample, soak
from agent.soak.sampling import RSS_TOLERANCE, WARMUP_FRACTION

# The oracle policy: every episode the same way out, so what grows is the agent, not the world.
DEFAULT_LLM = f"scripted:{REPO_ROOT / 'tests' / 'fixtures' / 'planner' / 'explore_policy.py'}"
DEFAULT_SCENARIO = "room"
ROLES = ("python", "bridge", "server")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("soak", help="run episodes in one process for N minutes and watch its memory, files and threads",
                       description=f"Loops planned episodes in one local server with one bot, samples RSS, open "
                                   f"files, threads and children of Python and Node, and passes when RSS stays "
                                   f"within {RSS_TOLERANCE:.0%} after the first {WARMUP_FRACTION:.0%} of the time.")
    p.add_argument("--minutes", type=_positive, default=60.0, help="how long (default 60)")
    p.add_argument("--sample-s", type=_positive, default=60.0, metavar="S", help="seconds between samples (default 60)")
    p.add_argument("--scenario", default=DEFAULT_SCENARIO, help=f"the world of every episode (default {DEFAULT_SCENARIO})")
    p.add_argument("--json", action="store_true", help="the whole report as JSON at the end instead of the verdict lines")
    add_config_flags(p, "--llm", "--username", "--port", "--version")
    add_tools_flags(p)
    p.set_defaults(handler=run)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of minutes or seconds above 0, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    loaded = load_from_args(args)
    defaults = {key for key, source in loaded.sources.items() if source == "default"}
    scenario = load_scenario(args.scenario)
    with tempfile.TemporaryDirectory(prefix="mcagent-soak-") as scratch:
        # The agent's own notes are not the place for a soak's thousands of observations.
        update = {"announce_methods": False, "server": loaded.config.server.model_copy(update={"kind": "local"}),
                  **({"llm": DEFAULT_LLM} if "llm" in defaults else {}),
                  **({"infospace": Path(scratch) / "notes.db"} if "infospace" in defaults else {})}
        config = loaded.config.model_copy(update=update)
        print(f"soak: {args.minutes:g} min of {scenario.name} episodes with {config.llm}; notes in {config.infospace}",
              file=sys.stderr)
        print(_header(), flush=True)
        report = soak(config, tool_sources(loaded, args), scenario, minutes=args.minutes, sample_s=args.sample_s,
                      on_sample=lambda sample: print(_row(sample), flush=True))
    if args.json:
        print(report.model_dump_json())
    else:
        per = report.verdict.kb_per_observation
        print(f"episodes: {report.episodes} {report.outcomes}; observations: {report.observations}; "
              f"Python RSS per observation after warm-up: {'n/a' if per is None else f'{per:.2f} KB'}")
        print(f"verdict: {'pass' if report.verdict.passed else 'FAIL'}: {report.verdict.reason}")
    if not report.verdict.passed:
        raise McAgentError(report.verdict.reason)
    return 0


def _header() -> str:
    cells = " ".join(f"{role + ' MiB/fds/thr/kids':>24}" for role in ROLES)
    return f"{'t (s)':>7} {'episodes':>8} {'observ.':>8} {cells}"


def _row(sample: Sample) -> str:
    by_role = {p.role: p for p in sample.processes}
    cells = " ".join(f"{_cell(by_role.get(role)):>24}" for role in ROLES)
    return f"{sample.t_s:>7.0f} {sample.episodes:>8} {sample.observations:>8} {cells}"


def _cell(p) -> str:
    return "-" if p is None else f"{p.rss_mb:.0f}/{p.open_files}/{p.threads}/{p.children}"


