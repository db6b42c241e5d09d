"""Putting the bot in a world: the local server (with its scenario) or a remote one.

Every command that needs a bot goes through `bot_session`, with typed options: the CLI turns
its flags into a WorldOptions, the eval builds one per episode.
"""

from __future__ import annotations

import socket
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.bridge import BotConnection, BridgeError, connect, shutdown, timeouts
from agent.bridge.models import ViewerInfo
from agent.config import AgentConfig
from agent.mc.geometry import Vec3
from agent.mc.version import DEFAULT_VERSION
from agent.server import LocalServer, Scenario, ServerInfo, load_server_settings

# The local server's record of block changes (bridge/lib/block-journal.js), in a session's temp folder.
JOURNAL_FILE = "blocks.jsonl"


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
    journal: Path | None = None,
) -> LocalServer:
    """A LocalServer from the config, server-config/ and the options; `port` overrides the config's."""
    overrides = {"world": world.world_dir, "generator": world.generator, "seed": world.world_seed}
    settings, _ = load_server_settings(config.server.settings, overrides)
    return LocalServer(
        settings,
        host=config.server.host,
        port=config.server.port if port is None else port,
        version=config.mc_version or DEFAULT_VERSION,
        scenario=world.scenario,
        on_log=on_log,
        journal=journal,
        public=config.server.public,
    )


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


@dataclass
class WorldSession:
    """A connected bot, the local server it plays on (None on a remote server), and its viewer.

    The bot may change during a run: a bot that lost its server joins again as a new
    connection (agent/session/keeper.py), and whoever holds the old one is told through
    `on_rejoin`. `local` is the LocalServer process, for starting it again after it died.
    """

    bot: BotConnection
    server: ServerInfo | None
    address: str
    viewer: ViewerInfo | None = None
    local: LocalServer | None = None
    config: AgentConfig | None = None
    world: WorldOptions | None = None
    _listeners: list[Callable[[BotConnection], None]] = field(default_factory=list)

    def on_rejoin(self, listener: Callable[[BotConnection], None]) -> Callable[[], None]:
        """`listener(new_bot)` after each rejoin, so that what held the old bot takes the new one.
        Returns what stops it, for a run that ends before the session does."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def teleport(self, target: Vec3) -> bool:
        """Moves the bot to `target` with the server's /tp (players are operators on the local
        server: `everybody_op`); whether the server moved it within a call's time."""
        mark = self.bot.events.last_seq
        self.bot.chat(f"/tp {target.x:.3f} {target.y:.3f} {target.z:.3f}")
        try:
            self.bot.events.wait_for("forcedMove", timeout_s=timeouts.CALL_S, after=mark)
        except BridgeError:
            return False
        return True

    def join_again(self, timeout_s: float) -> BotConnection:
        """A new bot in this session's world (the old one is closed); the viewer follows it."""
        assert self.config is not None, "bot_session sets the config"
        host, port = self.address.rsplit(":", 1)
        version = self.server.version if self.server is not None else self.config.mc_version
        bot = connect(host=host, port=int(port), username=self.config.username, version=version,
                      timeout_s=timeout_s)
        self.bot.close()
        self.bot = bot
        if self.viewer is not None and self.world is not None:
            try:
                self.viewer = viewer_for(self.config, self.world, bot, self.viewer.port)  # where it was
            except BridgeError as e:  # the bot is back; a viewer that cannot follow is no reason to fail that
                self.viewer = None
                print(f"viewer: not restarted after the rejoin: {e}", file=sys.stderr)
        for listener in self._listeners:
            listener(bot)
        return bot


@contextmanager
def bot_session(config: AgentConfig, world: WorldOptions) -> Iterator[WorldSession]:
    """Connects the bot where the config says, starting the local server when it is local.

    A local server takes the configured port, or a free one (said on stderr) when that is taken,
    and keeps a journal of block changes in a temporary folder, so that it can be started
    again with them after it died. With `world.viewer`, the web viewer starts too and its URL
    is printed on stderr. Everything is stopped on the way out, the Node bridge included.
    """
    try:
        if config.server.kind == "remote":
            with _joined(config, config.server.host, config.server.port, config.mc_version) as bot:
                address = f"{config.server.host}:{config.server.port}"
                yield WorldSession(bot, None, address, viewer_for(config, world, bot), config=config, world=world)
            return
        port = config.server.port
        if port and not port_is_free(config.server.host, port):
            print(f"port {port} is taken; the local server uses a free port instead", file=sys.stderr)
            port = 0
        with tempfile.TemporaryDirectory(prefix="mcagent-journal-") as folder:
            server = local_server(config, world, port=port, journal=Path(folder) / JOURNAL_FILE)
            with server as info, _joined(config, info.host, info.port, info.version) as bot:
                session = WorldSession(bot, info, f"{info.host}:{info.port}", viewer_for(config, world, bot),
                                       local=server, config=config, world=world)
                try:
                    yield session
                finally:
                    session.bot.close()  # the bot of the last rejoin
    finally:
        shutdown()


def viewer_for(config: AgentConfig, world: WorldOptions, bot: BotConnection,
               port: int | None = None) -> ViewerInfo | None:
    """The bot's web viewer when the run asks for one, on `port` (None: the configured one; 0: any
    free one), its URL said on stderr."""
    if not world.viewer:
        return None
    v = config.viewer
    viewer = bot.start_viewer(v.port if port is None else port, host=v.host, first_person=v.first_person)
    print(f"viewer: {viewer.url} follows {config.username} (open it in a browser; chunks appear after a few seconds)",
          file=sys.stderr)
    return viewer


def _joined(config: AgentConfig, host: str, port: int, version: str | None) -> BotConnection:
    return connect(host=host, port=port, username=config.username, version=version)
