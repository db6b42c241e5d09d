"""`mcagent connect`: join a server, print the bot's pose as JSON, leave."""

from __future__ import annotations

import argparse

from agent.bridge import connect, shutdown, timeouts
from agent.cli.parser import add_config_flags, load_from_args, seconds


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("connect", help="join a server, print the bot's pose as JSON and quit")
    add_config_flags(p, "--host", "--port", "--username", "--version")
    p.add_argument("--timeout", type=seconds, default=timeouts.CONNECT_S, metavar="S", help="seconds to wait for spawn")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = load_from_args(args).config
    try:
        with connect(
            host=config.server.host,
            port=config.server.port,
            username=config.username,
            version=config.mc_version,
            timeout_s=args.timeout,
        ) as bot:
            print(bot.state().model_dump_json(indent=2))
    finally:
        shutdown()
    return 0
