"""Putting the bot in a world for a command: the local server (with its scenario) or a remote one."""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from agent.bridge import BotConnection, connect, shutdown
from agent.bridge.models import ViewerInfo
from agent.config import AgentConfig
from agent.server import LocalServer, ServerInfo, load_scenario, load_server_settings
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
    flags = {key: getattr(args, key, None) for key in ("world", "generator", "seed")}
    settings, _ = load_server_settings(config.server.settings, flags)
    return LocalServer(
        settings,
        host=config.server.host,
        port=config.server.port if port is None else port,
        version=config.mc_version or DEFAULT_LOCAL_VERSION,
        scenario=load_scenario(config.server.scenario) if config.server.scenario else None,
        on_log=on_log,
    )


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


@dataclass(frozen=True)
class WorldSession:
    """A connected bot, the local server it plays on (None on a remote server), and its viewer."""

    bot: BotConnection
    server: ServerInfo | None
    address: str
    viewer: ViewerInfo | None = None


@contextmanager
def bot_session(config: AgentConfig, args: argparse.Namespace) -> Iterator[WorldSession]:
    """Connects the bot where the config says, starting the local server when it is local.

    A local server takes the configured port, or a free one (said on stderr) when that is taken.
    With `args.viewer`, the web viewer starts too and its URL is printed on stderr.
    Everything is stopped on the way out, the Node bridge included.
    """
    try:
        if config.server.kind == "remote":
            with _joined(config, config.server.host, config.server.port, config.mc_version) as bot:
                yield WorldSession(bot, None, f"{config.server.host}:{config.server.port}", _viewer(config, args, bot))
            return
        port = config.server.port
        if port and not port_is_free(config.server.host, port):
            print(f"port {port} is taken; the local server uses a free port instead", file=sys.stderr)
            port = 0
        with local_server(config, args, port=port) as info:
            with _joined(config, info.host, info.port, info.version) as bot:
                yield WorldSession(bot, info, f"{info.host}:{info.port}", _viewer(config, args, bot))
    finally:
        shutdown()


def _viewer(config: AgentConfig, args: argparse.Namespace, bot: BotConnection) -> ViewerInfo | None:
    if not getattr(args, "viewer", False):
        return None
    v = config.viewer
    viewer = bot.start_viewer(v.port, host=v.host, first_person=v.first_person)
    print(f"viewer: {viewer.url} (open it in a browser; chunks appear after a few seconds)", file=sys.stderr)
    return viewer


def _joined(config: AgentConfig, host: str, port: int, version: str | None) -> BotConnection:
    return connect(host=host, port=port, username=config.username, version=version)
