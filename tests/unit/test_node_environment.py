"""The environment every Node process of ours starts with (agent/node.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agent.node import node_binary, node_environment
from agent.paths import NODE_COMPILE_CACHE, NODE_MODULES


def test_it_finds_the_pinned_packages_and_keeps_compiled_code_beside_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NODE_COMPILE_CACHE", raising=False)
    env = node_environment()
    assert env["NODE_PATH"] == str(NODE_MODULES)
    assert env["NODE_COMPILE_CACHE"] == str(NODE_COMPILE_CACHE)


def test_node_writes_the_compile_cache_where_the_user_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NODE_COMPILE_CACHE", str(tmp_path))
    subprocess.run([node_binary(), "-e", "require('vec3')"], env=node_environment(), check=True, timeout=30,
                   stdin=subprocess.DEVNULL)
    assert [p for p in tmp_path.rglob("*") if p.is_file()], "Node kept no compiled module"
