"""Where the project's non-Python parts live, found from this package's location.

The package is installed editable from the repository, so the Node side
(bridge/) and the server settings (server-config/) sit beside it.
"""

import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
BRIDGE_DIR = REPO_ROOT / "bridge"
NODE_MODULES = BRIDGE_DIR / "node_modules"
# V8 code compiled from node_modules, kept by Node between runs (NODE_COMPILE_CACHE; agent/node.py).
NODE_COMPILE_CACHE = BRIDGE_DIR / ".compile-cache"
SERVER_LAUNCHER = BRIDGE_DIR / "server.js"
BRIDGE_RUNTIME = BRIDGE_DIR / "runtime.js"
SERVER_CONFIG_DIR = REPO_ROOT / "server-config"
DEFAULT_SERVER_SETTINGS = SERVER_CONFIG_DIR / "server.yaml"
WORLD_TOOLS_DIR = REPO_ROOT / "world-tools"
SKILLS_DIR = REPO_ROOT / "skills"
# llama.cpp's llama-server, which scripts/bootstrap.sh builds and links beside this Python.
LLAMA_SERVER = Path(sys.executable).parent / "llama-server"


def user_cache() -> Path:
    """mcagent's cache of things built or measured once per machine, as scripts/bootstrap.sh names
    it: $MCAGENT_CACHE, else $XDG_CACHE_HOME/mcagent, else ~/.cache/mcagent. Read at each call, so
    a test (or a second user of the machine) can point it elsewhere."""
    if explicit := os.environ.get("MCAGENT_CACHE"):
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mcagent"
