"""Local server settings: the documented file, the refused generator, the options flying-squid gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.paths import DEFAULT_SERVER_SETTINGS
from agent.server import ServerSettings, load_server_settings
from agent.server.settings import persistence_note


def test_shipped_settings_file_loads_with_every_key_from_the_file() -> None:
    settings, sources = load_server_settings(DEFAULT_SERVER_SETTINGS)
    assert settings == ServerSettings()  # the file documents the defaults
    assert set(sources.values()) == {str(DEFAULT_SERVER_SETTINGS)}


def test_empty_generator_is_refused_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("generator: empty\n")
    with pytest.raises(ConfigError, match="generator: 'empty' hangs flying-squid at 100 % CPU"):
        load_server_settings(tmp_path / "s.yaml")


def test_flags_override_the_file(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text("seed: 1\ngenerator: diamond_square\n")
    settings, sources = load_server_settings(tmp_path / "s.yaml", {"seed": 7, "generator": None})
    assert (settings.seed, settings.generator) == (7, "diamond_square")
    assert sources["seed"] == "command line"


def test_flying_squid_options() -> None:
    options = ServerSettings(game_mode="creative", world=Path("/w")).flying_squid_options(
        host="127.0.0.1", port=0, version="1.20.4"
    )
    assert options["online-mode"] is False and options["everybody-op"] is True
    assert options["gameMode"] == 1 and options["worldFolder"] == "/w"
    assert options["generation"] == {"name": "superflat", "options": {"seed": ServerSettings().seed}}
    assert options["logging"] is False


def test_persistence_note_only_past_1_16_5() -> None:
    assert persistence_note("1.16.5") is None and persistence_note("1.8.8") is None
    assert "block changes are lost" in persistence_note("1.20.4")
