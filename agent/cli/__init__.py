"""`mcagent`: one subcommand per module in this package, listed in COMMANDS."""

from __future__ import annotations

import os
import signal
import sys

from agent.cli import (
    bench_cmd, blueprint_cmd, call_cmd, config_cmd, connect_cmd, demo_cmd, doctor_cmd, eval_cmd, llm_cmd, replay_cmd, report_cmd,
    run_cmd, server_cmd, soak_cmd, tools_cmd,
)
from agent.cli.parser import OneLineArgumentParser
from agent.errors import McAgentError

# Every subcommand, in the order `mcagent --help` lists them.
COMMANDS = [server_cmd, connect_cmd, demo_cmd, run_cmd, eval_cmd, replay_cmd, report_cmd, config_cmd, tools_cmd, call_cmd,
            blueprint_cmd, bench_cmd, llm_cmd, soak_cmd, doctor_cmd]


def build_parser() -> OneLineArgumentParser:
    parser = OneLineArgumentParser(prog="mcagent", description="A Minecraft embodied agent driving a Mineflayer bot.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    return parser


def _exit_on_sigterm(signum: int, frame: object) -> None:
    # Turn SIGTERM into SystemExit so `with` blocks stop servers and bots on the way out.
    sys.exit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
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
