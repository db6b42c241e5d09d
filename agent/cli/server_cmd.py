"""`mcagent server`: the local Minecraft server in the foreground, until Ctrl-C."""

from __future__ import annotations

import argparse
import time

from agent.chat import AUTH, CHAT_SECRET_ENV
from agent.cli.parser import add_config_flags, add_public_flag, add_scenario_flag, load_from_args
from agent.cli.serving import add_server_flags, world_options
from agent.errors import McAgentError
from agent.server import ServerInfo
from agent.server.settings import persistence_note
from agent.session import local_server

# How often the foreground loop checks that the server is still alive.
POLL_S = 0.5


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("server", help="run the local Minecraft server in the foreground")
    add_config_flags(p, "--host", "--port", "--version")
    add_public_flag(p)
    add_server_flags(p)
    add_scenario_flag(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = load_from_args(args).config
    server = local_server(config, world_options(args, config), on_log=lambda line: print(f"  [server] {line}", flush=True))
    with server as info:
        print(join_instructions(info), flush=True)
        if info.world and (note := persistence_note(info.version)):
            print(f"  Note:  {note}", flush=True)
        while server.running():
            time.sleep(POLL_S)
    raise McAgentError(f"the server exited unexpectedly; last output: {' | '.join(server.log_tail(3))}")


def join_instructions(info: ServerInfo) -> str:
    address = f"{info.host}:{info.port}"
    public = [
        f"  Public: offline mode lets anyone who reaches {address} join under any name, an operator's too.",
        f"          Operators: {', '.join(info.operators) or 'none'} (operators in the server settings).",
        f"          Chat commands need a secret: set {CHAT_SECRET_ENV} for the bot's run; "
        f"a player whispers /tell <bot> {AUTH} <secret> once.",
    ]
    return "\n".join(
        [
            f"Minecraft {info.version} server ready at {address} "
            f"(offline mode, {info.generator}, seed {info.seed}, world {info.world or 'in memory'}"
            f"{f', scenario {info.scenario}' if info.scenario else ''}).",
            f"  Join:  Minecraft Java Edition {info.version} > Multiplayer > Direct Connection > {address}",
            "         (offline mode: any name works, no Microsoft login needed)",
            f"  Bot:   mcagent connect --port {info.port}",
            *(public if info.public else []),
            "  Stop:  Ctrl-C",
        ]
    )
