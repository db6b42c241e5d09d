"""Settings of the local flying-squid server, read from server-config/server.yaml.

Where the server listens and which version it speaks come from the agent
config (server.host, server.port, mc_version); this file shapes the world.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from agent.config.layers import Layer, StrictModel, flag_layer, read_yaml_layer, resolve
from agent.config.model import Username


# flying-squid's generators, less 'empty': it spins the server at 100 % CPU and ignores SIGTERM;
# and ours, 'natural' (bridge/lib/natural/): biomes, trees, caves, ores and water, as players know.
Generator = Literal["superflat", "diamond_square", "grass_field", "all_the_blocks", "nether", "natural"]
GAME_MODES = {"survival": 0, "creative": 1, "adventure": 2, "spectator": 3}
DIFFICULTIES = {"peaceful": 0, "easy": 1, "normal": 2, "hard": 3}
# flying-squid's keep-alive kick timeout; its own default.
KICK_TIMEOUT_MS = 10_000


class ServerSettings(StrictModel):
    """The world and rules of the local server."""

    generator: Generator = "superflat"
    seed: int = Field(20261121, description="world seed; fixed so every run starts in the same world")
    world: Path | None = Field(None, description="folder that persists the world across restarts; none: in memory")
    game_mode: Literal["survival", "creative", "adventure", "spectator"] = "survival"
    difficulty: Literal["peaceful", "easy", "normal", "hard"] = "peaceful"
    motd: str = "mcagent local server"
    max_players: Annotated[int, Field(ge=1, le=100)] = 10
    view_distance: Annotated[int, Field(ge=2, le=32)] = 6
    everybody_op: bool = Field(
        True, description="every player may run operator commands, so scenarios can be built; never on a public server"
    )
    operators: list[Username] = Field(
        default_factory=list, description="players who are operators when not everybody is (on a public server: the only ones)"
    )

    @field_validator("generator", mode="before")
    @classmethod
    def _refuse_empty(cls, value: Any) -> Any:
        if value == "empty":
            raise ValueError("'empty' hangs flying-squid at 100 % CPU; use superflat and build on it")
        return value

    def flying_squid_options(self, *, host: str, port: int, version: str, public: bool = False) -> dict[str, Any]:
        """The options object bridge/server.js hands to flying-squid's createMCServer (and
        `mcagent_operators` to bridge/lib/operators.js). A public server makes operators of
        the listed players only: offline mode lets anyone there take any name."""
        options: dict[str, Any] = {
            "online-mode": False,
            "host": host,
            "port": port,
            "version": version,
            "logging": False,  # flying-squid would write logs/ into the working directory
            "motd": self.motd,
            "max-players": self.max_players,
            "gameMode": GAME_MODES[self.game_mode],
            "difficulty": DIFFICULTIES[self.difficulty],
            "kickTimeout": KICK_TIMEOUT_MS,
            "plugins": {},
            "modpe": False,
            "view-distance": self.view_distance,
            "player-list-text": {"header": {"text": self.motd}, "footer": {"text": ""}},
            "everybody-op": self.everybody_op and not public,
            "mcagent_operators": self.operators,
            "max-entities": 100,
            "generation": {"name": self.generator, "options": {"seed": self.seed}},
        }
        if self.world is not None:
            options["worldFolder"] = str(self.world)
        return options


# Newest version whose chunks flying-squid's anvil provider writes and reads back
# (prismarine-provider-anvil issues #73 and #75: 1.17+ chunk saving is broken).
LAST_VERSION_PERSISTING_BLOCKS = (1, 16, 5)


def persistence_note(version: str) -> str | None:
    """What a world folder does not keep on this version, or None if it keeps everything."""
    parts = tuple(int(p) for p in version.split("."))
    if parts <= LAST_VERSION_PERSISTING_BLOCKS:
        return None
    return (
        f"on Minecraft {version} the world folder keeps the seed and player data, but block changes "
        "are lost on restart (flying-squid saves chunks only up to 1.16.5)"
    )


def load_server_settings(path: Path, flags: dict[str, Any] | None = None) -> tuple[ServerSettings, dict[str, str]]:
    """Defaults, then the settings file, then flags ({"key": value}, None = not given)."""
    layers: list[Layer] = [read_yaml_layer(path), flag_layer(flags or {})]
    return resolve(ServerSettings, layers)
