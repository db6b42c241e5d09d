"""`mcagent run --goal TEXT`: start the world when asked, connect the bot, and plan.

One progress line per step (outer.inner, tool, short args, status, duration), then a summary:
outcome, steps, wall time, LLM time, tokens in and out, and where the trace is. Exit code 0
when the goal is reported done, 1 when the run failed or hit its limits, 2 for bad usage,
130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from agent.cli.parser import add_config_flags, add_viewer_flags, add_world_flags, load_from_args
from agent.cli.serving import add_server_flags, bot_session
from agent.cli.tools_cmd import add_tools_flags, load_tools
from agent.cli.watching import run_setup, watching
from agent.config import AgentConfig
from agent.errors import ConfigError
from agent.infospace import Infospace, default_db_path
from agent.llm import Metered, open_backend
from agent.planner import Planner, PlannerOptions, RunResult
from agent.tools import Executor, Toolbox
from agent.trace import Event, TraceWriter
from agent.trace.schema import Chat, LlmCall, RunEnd, RunStart, ToolCall, ToolResult
from agent.trace.timeline import render

# The tool whose one-line summary opens the prompt as the world state, when the world has it.
STATE_TOOL = "mc-status"
SLUG_CHARS = 40
# Events the summary or nobody needs to see while the run goes on.
QUIET = (RunStart, RunEnd, LlmCall, Chat, ToolCall, ToolResult)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="plan toward a goal with the LLM planner, in the local server or yours")
    p.add_argument("--goal", required=True, help="what the bot should achieve, in words")
    add_config_flags(p, "--llm", "--username", "--port", "--version")
    add_world_flags(p)
    add_server_flags(p)
    add_tools_flags(p)
    add_viewer_flags(p)
    p.add_argument("--max-steps", type=step_count, metavar="N", help="outer steps (default: config max_steps, 20)")
    p.add_argument("--method-max-steps", type=step_count, metavar="N",
                   help="inner steps per method call (default: the method's own max_steps, else 24)")
    p.add_argument("--trace", type=Path, metavar="PATH",
                   help="JSONL trace of the steps (default: TRACE_DIR/<time>-<goal>/trace.jsonl)")
    p.set_defaults(handler=run)


def step_count(text: str) -> int:
    """An argparse type: a step bound from 1 to 1000."""
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 1000, got {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    config = load_from_args(args).config
    options = PlannerOptions(
        max_steps=args.max_steps or config.max_steps,
        method_max_steps=args.method_max_steps or config.method_max_steps,
    )
    result = plan_in_world(config, args, args.goal, options, args.trace or default_trace(config, args.goal))
    return result.exit_code


def default_trace(config: AgentConfig, goal: str) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", goal.lower()).strip("-")[:SLUG_CHARS] or "run"
    return config.trace_dir / f"{time.strftime('%Y%m%d-%H%M%S')}-{slug}" / "trace.jsonl"


def plan_in_world(config: AgentConfig, args: argparse.Namespace, goal: str, options: PlannerOptions,
                  trace: Path, around: Callable[[Executor, RunResult | None], None] | None = None) -> RunResult:
    """Opens the LLM, loads the tools, puts the bot in the world and plans; prints as it goes.
    `around` is called with the executor (its world is the bot) before planning, with no result,
    and after, with the result, while the bot is still in the world."""
    toolbox = load_tools(args)
    for error in toolbox.errors:
        print(f"tools: {error}", file=sys.stderr)
    unknown = [name for name in options.tools or [] if name not in toolbox.tools]
    if unknown:
        raise ConfigError(f"no tool named {unknown[0]!r}; is skills/ among the config's tool_folders?")
    backend = open_backend(config.llm)
    writer = TraceWriter(trace, on_event=print_progress)
    infospace = Infospace.open(config.infospace or default_db_path(config.username))
    try:
        with bot_session(config, args) as session:
            if session.server is not None:
                print(f"local server: Minecraft {session.server.version} at {session.address}")
            planner = Planner(backend, toolbox, options, writer)
            executor = Executor(toolbox, infospace, world=session.bot, llm=backend, method_runner=planner,
                                subplanner=planner, on_say=lambda text: print(f"bot says: {text}"), observer=writer)
            with watching(session, planner, config):
                if around is not None:
                    around(executor, None)
                setup = run_setup(config, session, backend)
                result = planner.run(goal, executor, world=world_state(executor, toolbox), setup=setup)
                if around is not None:
                    around(executor, result)
            # Said before the world shuts down, so that a failing shutdown cannot hide it.
            print_summary(result, backend)
    finally:
        writer.close()
        infospace.close()
    return result


def world_state(executor: Executor, toolbox: Toolbox) -> str:
    if STATE_TOOL not in toolbox.tools:
        return ""
    state = executor.execute_action({"type": STATE_TOOL})
    return state.value if state.ok else f"unknown ({STATE_TOOL} failed: {state.reason})"


def timeline_console() -> Console:
    """Colour only on a terminal, whatever rich guesses from the environment, and lines never
    wrapped: piped output is one plain line per step, as scripts and tests read it."""
    return Console(soft_wrap=True, highlight=False, force_terminal=sys.stdout.isatty())


def print_progress(event: Event) -> None:
    if isinstance(event, QUIET):
        return
    console = timeline_console()
    for line in render(event, details=False):
        console.print(line)
    sys.stdout.flush()


def print_summary(result: RunResult, backend: Metered) -> None:
    usage = result.usage
    print(f"outcome: {result.outcome} ({result.reason})")
    print(f"steps: {result.steps} outer, {result.inner_steps} inner; wall {result.wall_s:.1f} s; "
          f"LLM {usage.seconds:.1f} s in {usage.calls} calls ({backend.name})")
    print(f"tokens: {usage.prompt_tokens:,} in ({usage.prefilled_tokens:,} prefilled), {usage.completion_tokens:,} out")
    if result.trace is not None:
        print(f"trace: {result.trace}")
