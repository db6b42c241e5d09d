"""`mcagent`: one subcommand per module in this package, listed in COMMANDS."""

from __future__ import annotations

import importlib
import os
import signal
import sys

from agent.cli.parser import OneLineArgumentParser
from agent.errors import McAgentError

# Every subcommand (agent/cli/<name>_cmd.py), in the order `mcagent --help` lists them.
COMMANDS = ["server", "connect", "demo", "run", "eval", "replay", "report", "config", "tools", "call", "blueprint", "bench",
            "llm", "soak", "doctor"]


def build_parser(only: str | None = None) -> OneLineArgumentParser:
    """Every command's parser, or only the named one's (the others' modules are then not imported)."""
    parser = OneLineArgumentParser(prog="mcagent", description="A Minecraft embodied agent driving a Mineflayer bot.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in [only] if only else COMMANDS:
        importlib.import_module(f"agent.cli.{name}_cmd").register(sub)
    return parser


def _exit_on_sigterm(signum: int, frame: object) -> None:
    # Turn SIGTERM into SystemExit so `with` blocks stop servers and bots on the way out.
    sys.exit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Import only the command asked for: importing all of them (the planner's SGLang, the benches)
    # cost every start some 0.7 CPU-s: `mcagent replay TRACE` 1.04 -> 0.31, `mcagent run` 0.2 less.
    args = build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        return args.handler(args) or 0
    except McAgentError as e:
        print(f"mcagent {args.command}: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"mcagent {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`mcagent ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
