"""`mcagent run --bots N` and `--team FILE`: a team in one world (agent/session/team_run.py).

Each bot's steps as they come, its name before each line; then each bot's summary, and the
team's: `team: verified (mcagent2 reached it)` or `team: not verified`. Each bot's trace is
`<folder>/<bot>/trace.jsonl`; `mcagent replay <folder>` shows them as one timeline.
"""

from __future__ import annotations

import argparse
import sys
import threading

from agent.checks import load_check
from agent.cli.progress import print_progress, print_summary, say_where
from agent.cli.tool_flags import tool_sources
from agent.config import LoadedConfig
from agent.errors import ConfigError
from agent.planner import PlannerOptions
from agent.session import WorldOptions
from agent.session.goal import trace_path
from agent.session.team import Team, load_team
from agent.session.team_run import TeamRequest, TeamResult, plan_team, reached
from agent.trace import Event

# Flags that are one bot's: a team's bots each build or judge nothing of their own.
SOLO_FLAGS = ("blueprint", "judge")


def run_team(loaded: LoadedConfig, args: argparse.Namespace, world: WorldOptions) -> int:
    config = loaded.config
    if args.bots is not None and args.team is not None:
        raise ConfigError("--bots N makes a team of N alike; --team FILE names its bots: give one of them")
    solo = [f"--{name}" for name in SOLO_FLAGS if getattr(args, name) is not None]
    if solo:
        raise ConfigError(f"{', '.join(solo)} is one bot's run: leave it out of a team's (--bots, --team)")
    team = load_team(args.team) if args.team is not None else Team.of(args.bots, config.username, args.goal)
    if args.team is not None and args.goal:
        team = team.model_copy(update={"goal": args.goal})
    options = PlannerOptions(
        max_steps=args.max_steps or config.max_steps,
        method_max_steps=args.method_max_steps or config.method_max_steps,
        tools=args.tools, catalog=args.catalog or config.catalog, catalog_size=config.catalog_size,
    )
    said = threading.Lock()

    def on_event(bot: str, event: Event) -> None:
        with said:  # one bot's lines never break into another's
            print_progress(event, who=bot)

    name = "; ".join(dict.fromkeys(team.goal_of(b, world.scenario) for b in team.bots))  # each goal once
    print(f"team: {', '.join(b.name for b in team.bots)}; goal: {name}")
    with trace_path(args.trace, config, name) as trace:
        request = TeamRequest(config=config, tool_sources=tool_sources(loaded, args), world=world, team=team,
                              check=load_check(args.check) if args.check else None, options=options,
                              folder=trace.parent, on_event=on_event, on_ready=say_where,
                              on_tool_error=lambda line: print(f"tools: {line}", file=sys.stderr))
        result = plan_team(request)
    print_team(result)
    print(f"traces: {trace.parent}/<bot>/trace.jsonl (mcagent replay {trace.parent})")
    return result.exit_code


def print_team(result: TeamResult) -> None:
    for bot, run in result.results.items():
        print(f"--- {bot}")
        print_summary(run)
    by = [bot for bot, run in result.results.items() if reached(run)]
    if result.verified:
        print(f"team: verified ({', '.join(by)} reached {'it' if result.shared else 'their goals'})")
    else:
        print("team: not verified" + (f" ({', '.join(by)} reached their goals, not every bot)" if by else ""))
