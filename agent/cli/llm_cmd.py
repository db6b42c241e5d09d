"""`mcagent llm SUBCOMMAND`: the LLM backends themselves. A subcommand is a function that
registers on the group; add it to SUBCOMMANDS.

`mcagent llm check SPEC [--json] [--no-reading] [--no-choices]`: what the backend can do and how
fast, as one table; exit 0 when it can serve the planner, 1 (and the reason as one line on
stderr) when it cannot. Then the named sets, each score in one line, kept in the user's cache
where a run finds it: the reading set (agent/planner/reading_set.py), 50 asks read by the
backend (a run lets the model read goals only at the mark); the choice set
(agent/planner/choice_set.py), tool choices from the suites' runs (the model's weight in every
choice is its skill above chance there). A set's score never changes the exit code: that is
the rows'.

`mcagent llm serve [--engine llama-server|llama-cpp-python] [--parallel N] [--port N]
[--model PATH.gguf] [--threads N] [--context N] [--plain]`: a model server with the embedded
model on 127.0.0.1, until Ctrl-C: llama.cpp's llama-server with N slots (one per agent that
shares it), or llama-cpp-python's OpenAI-compatible server; it prints the `--llm` spec that
uses it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from agent.cli.parser import add_command_group, add_config_flags, count, load_from_args
from agent.config import AgentConfig
from agent.diagnostics.backend_check import CheckReport, CheckRow, check_backend, not_opened
from agent.diagnostics.measured import CHOICES, MARK, READING, SetRun, SetScore, choice_weight, figures
from agent.diagnostics.measurements import identity_of, record
from agent.diagnostics.backend_probe import PROBE_PATHS, probe_backend
from agent.errors import ConfigError
from agent.eval.tables import text_table
from agent.llm.base import LlmError, Metered
from agent.llm.backend_spec import open_configured, parse_spec
from agent.serving.model_server import DEFAULT_ALIAS, ENGINES, LocalLlamaServer

CHECK_HEAD = ("check", "result", "latency", "tokens in (computed) / out", "detail")
# What a set's score means for a run, at the mark and below it.
CONSEQUENCES = {READING: ("the model reads the goals no rule reads", "the model reads no goals")}


def register(sub: argparse._SubParsersAction) -> None:
    group = add_command_group(sub, "llm", "the LLM backends: check what one can do, serve the embedded model")
    for add in SUBCOMMANDS:
        add(group)


def _register_check(group: argparse._SubParsersAction) -> None:
    p = group.add_parser("check", help="what a backend can do and how fast; exit 1 if it cannot serve the planner")
    p.add_argument("spec", metavar="SPEC",
                   help="sglang:URL, llama-server:URL[?slot=N], openai:BASE_URL#MODEL, llamacpp[:NAME|PATH.gguf], scripted:PATH, "
                        "replay:TRACE, random")
    p.add_argument("--json", action="store_true", help="print the rows, the verdict and the reading's score as JSON")
    p.add_argument("--no-reading", action="store_true", help="skip the reading set (and keep no new score of it)")
    p.add_argument("--no-choices", action="store_true", help="skip the choice set (and keep no new score of it)")
    add_config_flags(p)  # --config: the API key's variable, a server's timeout and retries
    p.set_defaults(handler=run_check)


def _register_serve(group: argparse._SubParsersAction) -> None:
    p = group.add_parser("serve", help="serve the embedded model on 127.0.0.1 (llama-server, N slots)")
    p.add_argument("--engine", choices=ENGINES, default="llama-server",
                   help="llama.cpp's llama-server (default: slots, continuous batching) or llama-cpp-python's server")
    p.add_argument("--parallel", type=count, default=1, metavar="N",
                   help="llama-server's slots: agents served at once, each keeping its prompt cached (default 1)")
    p.add_argument("--context", type=count, default=None, metavar="N",
                   help="tokens of context per slot (default 8192, what the planner's prompt fits in)")
    p.add_argument("--port", type=int, default=None, help="its port (default: a free one)")
    p.add_argument("--model", type=Path, default=None, metavar="PATH.gguf", help="default: SmolLM2-135M-Instruct")
    p.add_argument("--alias", default=DEFAULT_ALIAS, help=f"the model's name in requests (default {DEFAULT_ALIAS})")
    p.add_argument("--threads", type=int, default=None, help="CPU threads (default: every core)")
    p.add_argument("--plain", action="store_true",
                   help="with --engine llama-cpp-python: llama_cpp.server unmodified (its replies leave out "
                        "prompt-cache hits)")
    p.set_defaults(handler=run_serve)


SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [_register_check, _register_serve]


def run_serve(args: argparse.Namespace) -> int:
    """Serves until Ctrl-C (exit 130, as everywhere in mcagent) or the server's death (exit 1)."""
    server = LocalLlamaServer(args.model, engine=args.engine, parallel=args.parallel, port=args.port, alias=args.alias,
                              threads=args.threads, context_tokens=args.context, plain=args.plain)
    with server:
        slots = f", {server.parallel} slot{'s' if server.parallel != 1 else ''} of {server.context_tokens} tokens"
        print(f"serving {server.model} with {server.engine}{slots if server.engine == 'llama-server' else ''} "
              f"at {server.root_url}; use --llm {server.spec()}", flush=True)
        print("Ctrl-C stops it", flush=True)
        try:
            code = server.wait()
        except KeyboardInterrupt:
            return 130
        print(f"mcagent llm serve: the server exited with code {code}: {' | '.join(server.log_tail(3))}",
              file=sys.stderr)
    return 1


def run_check(args: argparse.Namespace) -> int:
    config = load_from_args(args).config
    report, backend = check_spec(args.spec, config)
    if not args.json:
        print(check_text(report), flush=True)  # the rows now: the reading set takes minutes on a small CPU
    runs = []
    for name, skipped in ((READING, args.no_reading), (CHOICES, args.no_choices)):
        if skipped:
            continue
        if not args.json:
            print(f"\n{name}: ", end="", flush=True)  # the line starts now and ends with the score
        runs.append(set_run(name, args.spec, report, backend, config))
        if not args.json:
            print(set_run_text(runs[-1]), flush=True)
    if args.json:
        print(report.model_copy(update={"measured": runs}).model_dump_json(indent=2))
    if not report.can_serve:
        print(f"mcagent llm check: {report.verdict}", file=sys.stderr)
        return 1
    return 0


def check_spec(spec: str, config: AgentConfig) -> tuple[CheckReport, Metered | None]:
    """Opens the backend and checks it. A bad spec, or a server that does not answer (asked once,
    with a short timeout, before anything waits on it), is a report with one failed row and no
    backend."""
    started = time.perf_counter()
    try:
        if parse_spec(spec).kind in PROBE_PATHS:
            probe_backend(spec)
        backend: Metered = open_configured(config, spec)
    except (ConfigError, LlmError) as e:
        return not_opened(spec, e), None
    return check_backend(backend, spec, opened_s=time.perf_counter() - started), backend


def set_run(name: str, spec: str, report: CheckReport, backend: Metered | None, config: AgentConfig) -> SetRun:
    """The named set on a backend that can serve, its score kept in the backend's record. A
    backend that fails mid-set, or a malformed set file, leaves the record as it was."""
    if backend is None or not report.can_serve:
        return SetRun(set=name, not_run="the backend cannot serve the planner")
    try:
        score = _measure(name, backend, config)
    except (ConfigError, LlmError) as e:
        return SetRun(set=name, not_run=" ".join(str(e).split()))
    return SetRun(set=name, score=score, record=str(record(identity_of(backend), spec, score)))


def _measure(name: str, backend: Metered, config: AgentConfig) -> SetScore:
    # imported here: `llm serve` needs no planner (0.3 s to import)
    if name == READING:
        from agent.planner.reading_set import measure_reading
        return measure_reading(backend, mc_version=config.mc_version)
    from agent.planner.choice_set import measure_choices
    return measure_choices(backend)


def set_run_text(run: SetRun) -> str:
    """What follows `reading: ` on its line: `31/50 right (62 %), 12 wrong (24 %), 7 none in
    41.0 s; below the mark (...): the model reads no goals`; for the choice set, the chance and
    the weight its choices get; then where the score was kept."""
    if run.score is None:
        return f"not run: {run.not_run}"
    if run.set == CHOICES:
        weight = choice_weight(run.score)
        said = (f"chance {(run.score.chance or 0) * 100:.0f} %, the first offer {(run.score.first_offer or 0) * 100:.0f} %; "
                f"the model's weight in every choice: {weight:.2f}"
                + ("" if weight else " (not surely above the better of the two: the runtime's prior chooses, "
                                     "the model is not asked)"))
        return f"{figures(run.score)} in {run.score.seconds:.1f} s; {said}\n  kept in {run.record}"
    reads, reads_not = CONSEQUENCES.get(run.set, ("it is used", "it is not used"))
    mark = f"at the mark ({MARK}): {reads}" if run.score.qualifies else f"below the mark ({MARK}): {reads_not}"
    return f"{figures(run.score)} in {run.score.seconds:.1f} s; {mark}\n  kept in {run.record}"


def check_text(report: CheckReport) -> str:
    """The rows as a table, the verdict under it, then what the rates mean."""
    lines = [(row.check, row.state, _seconds(row.latency_s), _tokens(row), row.detail) for row in report.rows]
    notes = [f"  {note}" for note in report.notes]
    return "\n".join([text_table(CHECK_HEAD, lines), "", f"verdict: {report.verdict}", *notes])


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f} s"


def _tokens(row: CheckRow) -> str:
    if row.prompt_tokens is None:
        return "-"
    return f"{row.prompt_tokens} ({row.prefilled_tokens}) / {row.completion_tokens}"
