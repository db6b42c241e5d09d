"""`mcagent run`: plan toward a goal in a world, checked by the world where a check is given.

One progress line per step (outer.inner, tool, short args, status, duration), then a summary:
the outcome (`success (verified: ...)`, `done (unverified: no check)`, `max_steps`, `failed`,
`llm_error` when the model server fails, `disconnected` when the bot lost its server and could not
join again; these two are also one line on stderr), success claims and refusals, rejoins and deaths, steps, wall time, LLM time, tokens, and where the trace is. Exit code
0 for a verified success or an unverified DONE, 1 otherwise, 2 for bad usage, 130 for Ctrl-C.

With --blueprint FILE the goal is to build the file's structure (agent/session/blueprint.py),
and the summary ends with the share of its cells the world holds right, e.g.
`blueprint: 312 of 337 cells right (93 %) after 412.0 s`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


from agent.blueprint.score import BuildScore
from agent.checks import Check, load_check
from agent.checks.model import Cell
from agent.errors import ConfigError
from agent.goals import Understanding
from agent.cli.progress import print_summary, print_progress, say_where
from agent.cli.run_team import run_team
from agent.cli.parser import add_config_flags, add_viewer_flags, add_world_flags, load_from_args
from agent.cli.serving import add_scenario_seed_flag, add_server_flags, world_options
from agent.cli.tool_flags import add_tools_flags, tool_sources
from agent.cli.tools_cmd import add_catalog_flags
from agent.config import LoadedConfig
from agent.planner import PlannerOptions, RunResult
from agent.session import WorldOptions, WorldSession
from agent.session.run import RunRequest, plan_in_world
from agent.session.blueprint import BlueprintBuild, blueprint_build
from agent.session.goal import goals_asked, trace_path
from agent.session.team import MAX_BOTS

def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="plan toward a goal with the LLM planner, in the local server or yours")
    p.add_argument("--goal", help="what the bot should achieve, in words (default: the scenario's goal)")
    p.add_argument("--check", metavar="CHECK",
                   help="what the world must show for the goal to count as reached: inline YAML such as "
                        "'sky_visible: true', or a .yaml/.json file (default: the scenario's success, else "
                        "what the goal's words state)")
    p.add_argument("--judge", metavar="CHECK",
                   help="a check the world decides after the run, never shown to the planner (as --check), "
                        "to measure how well the goal was understood")
    add_config_flags(p, "--llm", "--username", "--port", "--version")
    add_world_flags(p)
    add_scenario_seed_flag(p)
    add_server_flags(p)
    add_tools_flags(p)
    add_catalog_flags(p)
    add_viewer_flags(p)
    p.add_argument("--max-steps", type=step_count, metavar="N", help="outer steps (default: config max_steps, 20)")
    p.add_argument("--method-max-steps", type=step_count, metavar="N",
                   help="inner steps per method call (default: the method's own max_steps, else 24)")
    p.add_argument("--trace", type=Path, metavar="PATH",
                   help="JSONL trace of the steps (default: TRACE_DIR/<time>-<goal>/trace.jsonl)")
    p.add_argument("--blueprint", type=Path, metavar="FILE",
                   help="build this file's structure (.json: Mindcraft's blueprint or a Structure; .schem, "
                        ".schematic, .litematic), checked cell by cell with block states")
    p.add_argument("--at", type=cell_arg, metavar="X,Y,Z",
                   help="with --blueprint: the world cell of the structure's lowest north-west corner (default: "
                        "in front of the spawn, its near side two blocks ahead, on the ground)")
    p.add_argument("--bots", type=bot_count, metavar="N",
                   help="a team of N bots in one world, each planning toward the goal on its own "
                        "(named USERNAME1..N); reached when any of them reaches it")
    p.add_argument("--team", type=Path, metavar="FILE",
                   help="a team file: its bots' names, a goal shared or one each, and what each carries "
                        "(docs/teams.md)")
    p.add_argument("--materials", choices=["given"],
                   help="with --blueprint on the local server: the bill of materials in the inventory at spawn")
    p.set_defaults(handler=run)


def cell_arg(text: str) -> Cell:
    """An argparse type: a world cell written X,Y,Z in whole blocks."""
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected X,Y,Z in whole blocks, e.g. 10,5,-3, got {text!r}")
    x, y, z = (int(p) for p in parts)
    return (x, y, z)


def bot_count(text: str) -> int:
    """An argparse type: a team's size, from 1 to MAX_BOTS."""
    if not text.isdigit() or not 1 <= int(text) <= MAX_BOTS:
        raise argparse.ArgumentTypeError(f"expected a whole number of bots from 1 to {MAX_BOTS}, got {text!r}")
    return int(text)


def step_count(text: str) -> int:
    """An argparse type: a step bound from 1 to 1000."""
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 1000, got {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    loaded = load_from_args(args)
    config = loaded.config
    world = world_options(args, config)
    if args.bots is not None or args.team is not None:
        return run_team(loaded, args, world)
    build = _blueprint_asked(args, config.server.kind == "local", world)
    if build is not None:
        world, goals = build.world, Understanding.given(build.goal, build.check)
    else:
        goals = goals_asked(args.goal, args.check, world, config.mc_version)
    judge = load_check(args.judge) if args.judge else None
    options = PlannerOptions(
        max_steps=args.max_steps or config.max_steps,
        method_max_steps=args.method_max_steps or config.method_max_steps,
        tools=args.tools, catalog=args.catalog or config.catalog, catalog_size=config.catalog_size,
    )
    scores: list[BuildScore | None] = []
    after_run = None if build is None else lambda session: scores.append(build.score(session))
    with trace_path(args.trace, config, goals.goal) as trace:
        result = run_and_print(loaded, args, world, goals, options, trace, judge=judge, after_run=after_run)
    if scores:
        print(f"blueprint: {scores[0].text() if scores[0] else 'the world could not be read'} after "
              f"{result.wall_s:.1f} s")
    return result.exit_code


def _blueprint_asked(args: argparse.Namespace, local: bool, world: WorldOptions) -> BlueprintBuild | None:
    """The build --blueprint asks for, with --at and --materials; None without --blueprint."""
    if args.blueprint is None:
        if args.at is not None or args.materials is not None:
            raise ConfigError("--at and --materials go with --blueprint FILE")
        return None
    if args.goal or args.check:
        raise ConfigError("--blueprint states the goal and its check: leave out --goal and --check")
    return blueprint_build(args.blueprint, world, args.at, args.materials == "given", local)


def run_and_print(loaded: LoadedConfig, args: argparse.Namespace, world: WorldOptions, goals: Understanding,
                  options: PlannerOptions, trace: Path, on_ready: Callable[[WorldSession], None] | None = None,
                  judge: Check | None = None,
                  after_run: Callable[[WorldSession], None] | None = None) -> RunResult:
    """Runs one episode through the session layer, printing what it understood of the goal
    before the first step, its steps as they happen, its summary, and the judge's verdict."""
    goal = goals.goal
    request = RunRequest(
        config=loaded.config, tool_sources=tool_sources(loaded, args), world=world, goal=goal, goals=goals, judge=judge,
        milestones=world.scenario.milestones_toward(goal) if world.scenario else [], options=options, trace=trace,
        on_event=print_progress, on_say=lambda text: print(f"bot says: {text}"),
        on_ready=on_ready or say_where, on_tool_error=lambda line: print(f"tools: {line}", file=sys.stderr),
        after_run=after_run,
    )
    print(f"goal: {goal}")
    result = plan_in_world(request)
    print_summary(result)
    return result
