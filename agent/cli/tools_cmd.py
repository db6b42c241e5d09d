"""`mcagent tools`: every tool the bot can use, with its type and source; bad tool files as one line each."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import get_args

from agent.cli.parser import add_config_flags, load_from_args
from agent.cli.tool_flags import add_tools_flags, load_tools
from agent.paths import REPO_ROOT
from agent.goals import understand
from agent.planner.focus import achievers, aimed_words
from agent.planner.given import given_args
from agent.planner.offer import Catalog, Offering, offer_text
from agent.tools import Toolbox, catalog_text
from agent.tools.catalog import grouped
from agent.tools.spec import NAME_PATTERN


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tools", help="list every tool with its type and source")
    add_config_flags(p)
    add_tools_flags(p)
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="every tool's spec summary and the load errors, as JSON")
    shown.add_argument("--catalog", action="store_true", help="the whole catalog text as the planner reads it")
    shown.add_argument("--goal", metavar="TEXT", help="what the planner offers for this goal, as it reads it: the "
                                                      "guidance and the ranked catalog (config catalog_size)")
    p.set_defaults(handler=run)


def add_catalog_flags(parser: argparse.ArgumentParser) -> None:
    """--tools and --catalog: what the outer loop may choose, for run and eval."""
    parser.add_argument("--tools", type=tool_names, metavar="A,B,C",
                        help="the tools the outer loop may choose, by name (default: as --catalog says)")
    parser.add_argument("--catalog", choices=get_args(Catalog),
                        help="without --tools: ranked, the tools that fit the goal best; full, every tool "
                             "(default: config catalog, ranked)")


def tool_names(text: str) -> list[str]:
    """An argparse type: tool names separated by commas."""
    names = [name.strip() for name in text.split(",")]
    if not all(re.fullmatch(NAME_PATTERN, name) for name in names):
        raise argparse.ArgumentTypeError(f"expected tool names separated by commas, such as explore-area,mc-map; "
                                         f"got {text!r}")
    return names


def run(args: argparse.Namespace) -> int:
    loaded = load_from_args(args)
    toolbox = load_tools(loaded, args)
    if args.goal is not None:
        # As a run given no check offers it: led by what its first sub-goal's check asks (agent/goals).
        offering = Offering(toolbox, "ranked", loaded.config.catalog_size)
        goals = understand(args.goal, loaded.config.mc_version).subgoals
        check = goals[0].check if goals else None
        first, among = (list(given_args(check, toolbox)), achievers(check, toolbox)) if check is not None else ([], [])
        print(offer_text(offering.for_goal(aimed_words(args.goal, check), first=first, among=among), toolbox).strip())
    elif args.json:
        tools = [spec.summary() for _, specs in grouped(toolbox, include_hidden=True) for spec in specs]
        print(json.dumps({"tools": tools, "errors": [str(e) for e in toolbox.errors]}, indent=2))
    elif args.catalog:
        print(catalog_text(toolbox))
    else:
        print(listing(toolbox))
    for error in toolbox.errors:
        print(f"mcagent tools: {error}", file=sys.stderr)
    return 1 if toolbox.errors else 0


def listing(toolbox: Toolbox) -> str:
    """Name, type, source, origin (its folder, or module:function) and description of every tool,
    hidden ones marked, grouped as in the catalog."""
    groups = grouped(toolbox, include_hidden=True)
    width = max((len(spec.name) for _, specs in groups for spec in specs), default=4)
    origins = {spec.name: _shown(spec.origin) for _, specs in groups for spec in specs}
    where = max(map(len, origins.values()), default=6)
    lines = []
    for title, specs in groups:
        lines.append(title)
        for spec in specs:
            hidden = " (hidden)" if spec.hidden else ""
            lines.append(f"  {spec.name:<{width}}  {spec.type:<11}  {spec.source:<9}  {origins[spec.name]:<{where}}  "
                         f"{spec.description}{hidden}")
    errors = len(toolbox.errors)
    lines.append(f"{len(toolbox.tools)} tools, {errors} error{'' if errors == 1 else 's'}")
    return "\n".join(lines)


def _shown(origin: str) -> str:
    """A folder under the working directory or the repository, relative to it; anything else as it is."""
    for base in (Path.cwd(), REPO_ROOT):
        try:
            return str(Path(origin).relative_to(base))
        except ValueError:
            continue
    return origin
