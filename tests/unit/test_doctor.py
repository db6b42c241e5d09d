"""`mcagent doctor`: the versions in use, read from what is installed; a missing Node fails it."""

from __future__ import annotations

import json
import platform
import shutil
import subprocess

from agent.cli import main
from agent.node import node_binary
from agent.paths import NODE_MODULES


def _doctor(capsys) -> tuple[int, dict[str, dict]]:
    code = main(["doctor", "--json"])
    return code, {c["name"]: c for c in json.loads(capsys.readouterr().out)}


def test_it_reports_what_is_installed(capsys):
    code, found = _doctor(capsys)
    assert code == 0
    assert found["python"]["version"] == platform.python_version()
    node = subprocess.run([node_binary(), "--version"], capture_output=True, text=True, check=True).stdout
    assert found["node"]["version"] == node.strip().removeprefix("v")
    for package in ("mineflayer", "flying-squid"):
        manifest = json.loads((NODE_MODULES / package / "package.json").read_text())
        assert found[package]["version"] == manifest["version"]
    assert found["mcagent"]["version"] == "0.1.0"
    # The llama-server the bootstrap built, by the llama-cpp-python version it came from.
    assert found["llama-server"]["version"] == found["llama-cpp-python"]["version"]
    assert found["llama-server"]["where"].endswith(f"llama-server-{found['llama-cpp-python']['version']}/llama-server")


def test_a_node_older_than_mineflayer_asks_for_is_a_warning(capsys, monkeypatch, tmp_path):
    fake = tmp_path / "node"
    fake.write_text("#!/bin/sh\necho v18.19.0\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MCAGENT_NODE", str(fake))
    code, found = _doctor(capsys)
    assert code == 0 and found["node"]["version"] == "18.19.0"
    assert found["node"]["warning"] == "mineflayer declares Node >= 22; this is 18"


def test_without_node_it_says_so_and_fails(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("MCAGENT_NODE", str(tmp_path / "no-node-here"))
    assert main(["doctor"]) == 1
    line = next(l for l in capsys.readouterr().out.splitlines() if l.startswith("node "))
    assert "not installed" in line and "Node.js not found (MCAGENT_NODE=" in line


def test_the_pinned_node_comes_before_the_systems_and_mcagent_node_before_both(monkeypatch, tmp_path):
    import agent.node
    pinned = tmp_path / "pinned" / "node"
    pinned.parent.mkdir()
    pinned.write_text("#!/bin/sh\necho v22.23.3\n")
    pinned.chmod(0o755)
    monkeypatch.delenv("MCAGENT_NODE", raising=False)
    monkeypatch.setattr(agent.node, "PINNED_NODE", pinned)
    assert node_binary() == str(pinned)
    monkeypatch.setattr(agent.node, "PINNED_NODE", tmp_path / "not-installed" / "node")
    assert node_binary() == shutil.which("node")
    monkeypatch.setenv("MCAGENT_NODE", str(pinned))
    assert node_binary() == str(pinned)
