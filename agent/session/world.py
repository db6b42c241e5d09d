"""Putting the bot in a world: the local server (with its scenario) or a remote one.

Every command that needs a bot goes through `bot_session`, with typed options: the CLI turns
its flags into a WorldOptions, the eval builds one per episode.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.bridge import BotConnection, connect, shutdown
from agent.bridge.models import ViewerInfo
from agent.config import AgentConfig
from agent.server import LocalServer, Scenario, ServerInfo, load_server_settings
from agent.server.settings import DEFAULT_LOCAL_VERSION


class WorldOptions(BaseModel):
    """What shapes the local world beyond the config: server-config overrides, the scenario
    (already loaded, and varied by its seed), and whether to start the web viewer."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    world_dir: Path | None = None  # a folder that persists the world
    generator: str | None = None
    world_seed: int | None = None  # the terrain generator's seed, not the scenario's variation
    scenario: Scenario | None = None
    viewer: bool = False


def local_server(
    config: AgentConfig,
    world: WorldOptions,
    *,
    port: int | None = None,
    on_log: Callable[[str], None] | None = None,
) -> LocalServer:
    """A LocalServer from the config, server-config/ and the options; `port` overrides the config's."""
    overrides = {"world": world.world_dir, "generator": world.generator, "seed": world.world_seed}
    settings, _ = load_server_settings(config.server.settings, overrides)
    return LocalServer(
        settings,
        host=config.server.host,
        port=config.server.port if port is None else port,
        version=config.mc_version or DEFAULT_LOCAL_VERSION,
        scenario=world.scenario,
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
def bot_session(config: AgentConfig, world: WorldOptions) -> Iterator[WorldSession]:
    """Connects the bot where the config says, starting the local server when it is local.

    A local server takes the configured port, or a free one (said on stderr) when that is taken.
    With `world.viewer`, the web viewer starts too and its URL is printed on stderr.
    Everything is stopped on the way out, the Node bridge included.
    """
    try:
        if config.server.kind == "remote":
            with _joined(config, config.server.host, config.server.port, config.mc_version) as bot:
                yield WorldSession(bot, None, f"{config.server.host}:{config.server.port}", _viewer(config, world, bot))
            return
        port = config.server.port
        if port and not port_is_free(config.server.host, port):
            print(f"port {port} is taken; the local server uses a free port instead", file=sys.stderr)
            port = 0
        with local_server(config, world, port=port) as info:
            with _joined(config, info.host, info.port, info.version) as bot:
                yield WorldSession(bot, info, f"{info.host}:{info.port}", _viewer(config, world, bot))
    finally:
        shutdown()


def _viewer(config: AgentConfig, world: WorldOptions, bot: BotConnection) -> ViewerInfo | None:
    if not world.viewer:
        return None
    v = config.viewer
    viewer = bot.start_viewer(v.port, host=v.host, first_person=v.first_person)
    print(f"viewer: {viewer.url} (open it in a browser; chunks appear after a few seconds)", file=sys.stderr)
    return viewer


def _joined(config: AgentConfig, host: str, port: int, version: str | None) -> BotConnection:
    return connect(host=host, port=port, username=config.username, version=version)
