"""The Node.js runtime both Node processes (server and bridge) run on."""

from __future__ import annotations

import os
import shutil

from agent.errors import McAgentError
from agent.paths import BRIDGE_DIR, NODE_COMPILE_CACHE, NODE_MODULES

NODE_ENV_VAR = "MCAGENT_NODE"
BOOTSTRAP_HINT = "run `make bootstrap` (or `make test`) in the repository first"
# The pinned Node 22 the bootstrap installs when the system's Node is older (scripts/bootstrap.sh).
PINNED_NODE = BRIDGE_DIR / "node-runtime" / "node_modules" / ".bin" / "node"


def node_binary() -> str:
    """$MCAGENT_NODE, else the pinned Node when the bootstrap installed one, else `node` on PATH."""
    explicit = os.environ.get(NODE_ENV_VAR)
    found = explicit or (str(PINNED_NODE) if PINNED_NODE.is_file() else shutil.which("node"))
    if not found or not shutil.which(found):
        what = f"{NODE_ENV_VAR}={explicit}" if explicit else "`node` on PATH"
        raise McAgentError(f"Node.js not found ({what}); install Node.js 22 or newer, or {BOOTSTRAP_HINT}")
    return found


def require_node_modules() -> None:
    """The pinned npm packages must be installed: we never let anything run npm at run time."""
    if not (NODE_MODULES / "mineflayer").is_dir() or not (NODE_MODULES / "flying-squid").is_dir():
        raise McAgentError(f"{NODE_MODULES} is missing the pinned npm packages; {BOOTSTRAP_HINT}")


def node_environment() -> dict[str, str]:
    """Environment for our Node processes: the project's packages, no colour codes, no warning noise,
    and a compile cache (unless the user names their own), since a test run or an eval starts
    hundreds of servers and bridges that each compiled the same modules: 0.31 -> 0.20 CPU-s for a
    server's requires. Node writes it atomically and rejects an entry whose checksum fails."""
    return {"NODE_COMPILE_CACHE": str(NODE_COMPILE_CACHE), **os.environ, "NODE_PATH": str(NODE_MODULES),
            "FORCE_COLOR": "0", "NODE_NO_WARNINGS": "1"}
