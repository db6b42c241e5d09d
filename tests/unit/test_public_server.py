"""A local server opened to the network: refused without --public; with it, operators are only
the listed names, and the start says plainly what offline mode allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.cli import main
from agent.cli.server_cmd import join_instructions
from agent.errors import ConfigError
from agent.server import LocalServer, ServerInfo, ServerSettings
from agent.server.exposure import is_loopback


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.2.1", "::1", "localhost", "LOCALHOST"])
def test_loopback_hosts(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "10.0.0.5", "myhost.lan"])
def test_hosts_others_may_reach(host: str) -> None:
    assert not is_loopback(host)


def test_a_local_server_on_the_network_needs_public() -> None:
    with pytest.raises(ConfigError, match=r"server.host '0.0.0.0' is not loopback: .* unless --public"):
        LocalServer(ServerSettings(), host="0.0.0.0")
    assert LocalServer(ServerSettings(), host="0.0.0.0", public=True).options["host"] == "0.0.0.0"


def test_server_command_refuses_a_network_host_in_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert main(["server", "--host", "0.0.0.0", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mcagent server: server.host '0.0.0.0' is not loopback") and err.count("\n") == 1
    assert "--public" in err


def test_public_makes_operators_of_the_listed_names_only() -> None:
    settings = ServerSettings(operators=["alex"])  # everybody_op stays true, as shipped
    public = settings.flying_squid_options(host="0.0.0.0", port=0, version="1.20.4", public=True)
    assert public["everybody-op"] is False and public["mcagent_operators"] == ["alex"]
    assert settings.flying_squid_options(host="127.0.0.1", port=0, version="1.20.4")["everybody-op"] is True


def _info(**fields: object) -> ServerInfo:
    return ServerInfo(host="0.0.0.0", port=25565, version="1.20.4", generator="superflat", seed=1, world=None, **fields)


def test_a_public_start_says_what_offline_mode_allows() -> None:
    text = join_instructions(_info(public=True))
    assert "offline mode lets anyone who reaches 0.0.0.0:25565 join under any name" in text
    assert "Operators: none" in text and "MCAGENT_CHAT_SECRET" in text and "!auth <secret>" in text
    assert "Operators: alex, sam" in join_instructions(_info(public=True, operators=("alex", "sam")))
    assert "Public:" not in join_instructions(_info())
