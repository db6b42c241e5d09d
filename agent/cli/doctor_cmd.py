"""`mcagent doctor`: the versions of what the agent runs on, and what is missing or too old."""

from __future__ import annotations

import argparse
import json

from agent.versions import components

# Without these nothing runs: a missing one makes the command fail.
REQUIRED = ("python", "node", "mineflayer", "flying-squid", "mcagent")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="print the Python, Node and package versions in use, and what is missing")
    p.add_argument("--json", action="store_true", help="the same, as JSON")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    found = components()
    if args.json:
        print(json.dumps([c.model_dump() for c in found], indent=2))
    else:
        width = max(len(c.name) for c in found)
        for c in found:
            warning = f"  ! {c.warning}" if c.warning else ""
            print(f"{c.name:<{width}}  {c.version or 'not installed':<14}  {c.where}{warning}")
    missing = [c.name for c in found if c.name in REQUIRED and c.version is None]
    return 1 if missing else 0
