"""Finding, layering and validating the agent's configuration."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from agent.config.layers import Layer, flag_layer, provenance_table, read_yaml_layer, resolve
from agent.config.model import AgentConfig, ServerTarget
from agent.errors import ConfigError

CONFIG_FILENAME = "mcagent.yaml"

__all__ = ["AgentConfig", "ServerTarget", "LoadedConfig", "load_config", "find_config_file", "provenance_table"]


def user_config_dir() -> Path:
    """$XDG_CONFIG_HOME/mcagent, else ~/.config/mcagent."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "mcagent"


def find_config_file(explicit: Path | None = None) -> Path | None:
    """--config PATH if given (it must exist), else ./mcagent.yaml, else the user's config folder."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(f"config file {explicit} does not exist")
        return explicit
    for candidate in (Path.cwd() / CONFIG_FILENAME, user_config_dir() / CONFIG_FILENAME):
        if candidate.is_file():
            return candidate
    return None


class LoadedConfig:
    """The effective configuration, the file it came from, and each value's source."""

    def __init__(self, config: AgentConfig, file: Path | None, sources: dict[str, str]):
        self.config = config
        self.file = file
        self.sources = sources

    def table(self) -> list[tuple[str, Any, str]]:
        return provenance_table(self.config, self.sources)


def load_config(explicit: Path | None = None, flags: dict[str, Any] | None = None) -> LoadedConfig:
    """Defaults, then the config file, then flags ({"dotted.key": value}, None = not given)."""
    file = find_config_file(explicit)
    layers: list[Layer] = [read_yaml_layer(file)] if file else []
    layers.append(flag_layer(flags or {}))
    config, sources = resolve(AgentConfig, layers)
    return LoadedConfig(config, file, sources)
