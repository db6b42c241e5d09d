"""Starting the local server from the config and the server flags (server, demo, bench)."""

from __future__ import annotations

import argparse
import socket
from collections.abc import Callable
from pathlib import Path

from agent.config import AgentConfig
from agent.server import LocalServer, load_server_settings
from agent.server.settings import DEFAULT_LOCAL_VERSION


def add_server_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--world", type=Path, metavar="DIR", help="folder that persists the world")
    parser.add_argument("--generator", help="world generator (superflat, diamond_square, ...)")
    parser.add_argument("--seed", type=int, help="world seed")


def local_server(
    config: AgentConfig,
    args: argparse.Namespace,
    *,
    port: int | None = None,
    on_log: Callable[[str], None] | None = None,
) -> LocalServer:
    """A LocalServer from the config, server-config/ and the flags; `port` overrides the config's."""
    flags = {"world": args.world, "generator": args.generator, "seed": args.seed}
    settings, _ = load_server_settings(config.server.settings, flags)
    return LocalServer(
        settings,
        host=config.server.host,
        port=config.server.port if port is None else port,
        version=config.mc_version or DEFAULT_LOCAL_VERSION,
        on_log=on_log,
    )


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True
