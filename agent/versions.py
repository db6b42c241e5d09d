"""What the agent runs on: Python, the Node.js runtime, the pinned packages of both sides and
the llama-server the bootstrap built, each read from where it is installed, never from what
the lockfiles ask for."""

from __future__ import annotations

import json
import platform
import re
import subprocess
import sys
from importlib import metadata

from pydantic import BaseModel, ConfigDict

from agent.errors import McAgentError, first_line
from agent.node import node_binary
from agent.paths import LLAMA_SERVER, NODE_MODULES

# The Node side's packages that decide what the bot and the server can do.
NODE_PACKAGES = ("mineflayer", "mineflayer-pathfinder", "flying-squid", "minecraft-protocol", "prismarine-viewer")
PYTHON_PACKAGES = ("mcagent", "pydantic", "sglang", "llama-cpp-python", "ray")
NODE_VERSION_TIMEOUT_S = 10


class Component(BaseModel):
    """One thing the agent runs on: its version (None: not installed), where it is, and a warning if any."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    version: str | None
    where: str
    warning: str | None = None


def components() -> list[Component]:
    """Python, Node, then the Node packages and the Python packages, in that order."""
    python = Component(name="python", version=platform.python_version(), where=sys.executable)
    manifests = {name: _manifest(name) for name in NODE_PACKAGES}
    node = _node(_required_node_major(manifests["mineflayer"]))
    packages = [_node_package(name, manifest) for name, manifest in manifests.items()]
    return [python, node, *packages, *(_python_package(name) for name in PYTHON_PACKAGES), _llama_server()]


def _node(required_major: int | None) -> Component:
    try:
        binary = node_binary()
        shown = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True,
                               timeout=NODE_VERSION_TIMEOUT_S).stdout.strip().removeprefix("v")
    except (McAgentError, OSError, subprocess.SubprocessError) as e:
        return Component(name="node", version=None, where="-", warning=first_line(e))
    major = int(shown.split(".")[0])
    warning = None
    if required_major is not None and major < required_major:
        warning = f"mineflayer declares Node >= {required_major}; this is {major}"
    return Component(name="node", version=shown, where=binary, warning=warning)


def _manifest(name: str) -> dict | None:
    """An installed Node package's package.json, or None when it is not installed."""
    try:
        return json.loads((NODE_MODULES / name / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _node_package(name: str, manifest: dict | None) -> Component:
    where = str(NODE_MODULES / name)
    if manifest is None:
        return Component(name=name, version=None, where=where, warning="not installed: run make bootstrap")
    return Component(name=name, version=manifest.get("version"), where=where)


def _required_node_major(mineflayer: dict | None) -> int | None:
    """The Node major version mineflayer's package.json asks for (`engines.node: ">=22"`), if it says."""
    engines = (mineflayer or {}).get("engines", {})
    found = re.search(r">=\s*(\d+)", str(engines.get("node", "")))
    return int(found[1]) if found else None


def _python_package(name: str) -> Component:
    try:
        return Component(name=name, version=metadata.version(name), where="python package")
    except metadata.PackageNotFoundError:
        return Component(name=name, version=None, where="python package")


def _llama_server() -> Component:
    """The llama-server linked into the venv: built from the llama.cpp of the llama-cpp-python
    version its cache folder is named after (llama-server-VERSION)."""
    if not LLAMA_SERVER.is_file():
        return Component(name="llama-server", version=None, where=str(LLAMA_SERVER),
                         warning="not built: run make bootstrap (mcagent llm serve needs it)")
    built = LLAMA_SERVER.resolve()
    return Component(name="llama-server", version=built.parent.name.removeprefix("llama-server-"), where=str(built))
