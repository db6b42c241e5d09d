"""Config: file discovery, layering, provenance, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.cli import main
from agent.config import load_config
from agent.errors import ConfigError


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test runs in an empty folder with an empty user config folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path


def test_defaults_without_a_file() -> None:
    loaded = load_config()
    assert loaded.file is None
    assert loaded.config.server.host == "127.0.0.1" and loaded.config.username == "mcagent"
    assert {source for _, _, source in loaded.table()} == {"default"}


def test_file_in_working_directory_wins_over_user_folder(isolated: Path) -> None:
    (isolated / "xdg" / "mcagent").mkdir(parents=True)
    (isolated / "xdg" / "mcagent" / "mcagent.yaml").write_text("username: from_user\n")
    assert load_config().config.username == "from_user"
    (isolated / "mcagent.yaml").write_text("username: from_cwd\n")
    loaded = load_config()
    assert loaded.config.username == "from_cwd" and loaded.file == isolated / "mcagent.yaml"


def test_flags_override_the_file_and_provenance_says_so(isolated: Path) -> None:
    (isolated / "mcagent.yaml").write_text("server:\n  port: 30000\n  kind: remote\nusername: alice\n")
    loaded = load_config(flags={"server.port": 31000, "username": None})
    assert loaded.config.server.port == 31000 and loaded.config.username == "alice"
    sources = {key: source for key, _, source in loaded.table()}
    assert sources["server.port"] == "command line"
    assert sources["server.kind"] == sources["username"] == str(isolated / "mcagent.yaml")
    assert sources["server.host"] == "default"


def test_unknown_key_names_it_and_what_is_accepted(isolated: Path) -> None:
    (isolated / "mcagent.yaml").write_text("server:\n  prot: 1\n")
    with pytest.raises(ConfigError) as e:
        load_config()
    assert str(e.value) == (
        f"{isolated / 'mcagent.yaml'}: unknown key 'server.prot' (accepted under 'server': kind, host, public, port, settings, scenario)"
    )


@pytest.mark.parametrize(
    ("yaml_text", "expected"),
    [
        ("username: a b\n", "username: expected 3 to 16 letters, digits or underscores (got 'a b')"),
        ("server:\n  kind: lan\n", "server.kind: Input should be 'local' or 'remote' (got 'lan')"),
        ("server:\n  port: 70000\n", "server.port: Input should be less than or equal to 65535 (got 70000)"),
        ("llm: gpt\n", "llm: expected sglang:URL, llama-server:URL[?slot=N], openai:BASE_URL#MODEL"),
        ("chat_allowlist: [ok_name, '!!']\n", "chat_allowlist.1: expected 3 to 16 letters"),
    ],
)
def test_bad_values_are_one_line_naming_key_and_accepted(isolated: Path, yaml_text: str, expected: str) -> None:
    (isolated / "mcagent.yaml").write_text(yaml_text)
    with pytest.raises(ConfigError) as e:
        load_config()
    assert expected in str(e.value) and "\n" not in str(e.value)
    assert str(e.value).startswith(str(isolated / "mcagent.yaml"))


def test_invalid_yaml_names_the_line(isolated: Path) -> None:
    (isolated / "mcagent.yaml").write_text("username: ok\nserver: [unclosed\n")
    with pytest.raises(ConfigError, match=r"mcagent\.yaml:3:1: invalid YAML"):
        load_config()


def test_top_level_must_be_a_mapping(isolated: Path) -> None:
    (isolated / "mcagent.yaml").write_text("- a\n- b\n")
    with pytest.raises(ConfigError, match="expected a mapping of keys to values at the top level, got list"):
        load_config()


def test_explicit_missing_file_is_an_error(isolated: Path) -> None:
    with pytest.raises(ConfigError, match="config file nope.yaml does not exist"):
        load_config(Path("nope.yaml"))


def test_config_command_prints_values_and_sources(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (isolated / "mcagent.yaml").write_text("username: bob\n")
    assert main(["config", "--port", "0"]) == 0
    out = capsys.readouterr().out
    assert f"# config file: {isolated / 'mcagent.yaml'}" in out
    assert any(line.startswith("username") and '"bob"' in line and "mcagent.yaml" in line for line in out.splitlines())
    assert any(line.startswith("server.port") and "# command line" in line for line in out.splitlines())
    assert "# local server settings:" in out and "generator" in out


def test_config_command_bad_file_is_one_line_exit_2(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (isolated / "mcagent.yaml").write_text("colour: blue\n")
    assert main(["config"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mcagent config: ") and "unknown key 'colour'" in err and "\n" not in err
