"""The one JSPyBridge Node process this Python process talks to.

JSPyBridge starts Node when `javascript` is first imported and cannot restart
it, so it is imported lazily, here only, with NODE_PATH pointing at our pinned
packages so it never runs npm itself. bridge/preload.js runs before anything
else in that Node process: it makes Node exit when Python dies (even by SIGKILL),
from its first moment. bridge/runtime.js, which Python requires first, adds the
bots' cleanup to that and keeps library chatter off the pipes.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
import subprocess
import tempfile
import threading
import weakref
from pathlib import Path
from typing import Any, Protocol

from agent.bridge import timeouts
from agent.bridge.errors import BridgeError
from agent.bridge.threads import make_thread_safe
from agent.errors import first_line
from agent.node import node_binary, node_environment, require_node_modules
from agent.paths import BRIDGE_DIR


class Closable(Protocol):
    """What shutdown needs of a connection (a BotConnection): to close it."""

    def close(self) -> None: ...

LOG_ENV_VAR = "MCAGENT_BRIDGE_LOG"
# JSPyBridge takes any message from Node whose id matches a pending call as that call's reply,
# callbacks included. Node numbers its callbacks (bot events) from 10000 and Python its calls
# from 1, so a process that had made some 5000 calls could get a bot event as a call's reply.
# Python's calls are numbered from here, far past any count of callbacks Node reaches.
REQUEST_IDS_FROM = 1_000_000_000
PRELOAD = BRIDGE_DIR / "preload.js"

_lock = threading.Lock()
_helpers: Any = None
# The helper functions every connection calls, read from Node once, as it starts: each read of a
# JS attribute is a round trip JSPyBridge bounds at a fixed 10 s, which a Node busy on a loaded
# machine can miss ("Timed out accessing 'connect'"); a call is bounded by its own timeout.
ENTRIES = ("createHandle", "connect", "invoke", "quit")
_entries: dict[str, Any] = {}
_shut_down = False
# Set when a call was interrupted halfway (Ctrl-C): JSPyBridge's reader thread dies when the
# abandoned reply arrives, so no further call may be made; cleanup only ends Node.
_abandoned = False
_connections: weakref.WeakSet[Closable] = weakref.WeakSet()


def bridge_log_path() -> Path:
    """Where Node-side library output goes: $MCAGENT_BRIDGE_LOG, else a file in the temp folder."""
    return Path(os.environ.get(LOG_ENV_VAR) or Path(tempfile.gettempdir()) / "mcagent-bridge.log")


def helpers() -> Any:
    """The JS helpers (bridge/helpers/index.js), starting the Node process on first use."""
    global _helpers
    with _lock:
        if _shut_down:
            raise BridgeError("the Node bridge was shut down in this process; start a new process to connect again")
        if _helpers is None:
            _helpers = _start()
            _entries.update({name: getattr(_helpers, name) for name in ENTRIES})
        return _helpers


def entry(name: str) -> Any:
    """One of ENTRIES, the helper function read when Node started (starting it on first use)."""
    helpers()
    return _entries[name]


def _start() -> Any:
    require_node_modules()
    os.environ.update(node_environment())
    os.environ["NODE_BIN"] = node_binary()
    os.environ[LOG_ENV_VAR] = str(bridge_log_path())
    user_options = os.environ.get("NODE_OPTIONS")
    # For the bridge's Node only (it starts on import): a lifeline before runtime.js is loaded.
    os.environ["NODE_OPTIONS"] = f'--require "{PRELOAD}" {user_options or ""}'.strip()
    try:
        return _require_runtime()
    finally:
        if user_options is None:
            del os.environ["NODE_OPTIONS"]
        else:
            os.environ["NODE_OPTIONS"] = user_options


def _require_runtime() -> Any:
    import javascript  # noqa: PLC0415 - importing starts Node; only once the environment is set
    from javascript import config, connection

    make_thread_safe(config, connection, first_id=REQUEST_IDS_FROM)
    threading.excepthook = _quiet_late_replies(threading.excepthook, config.event_thread)
    # Registered after javascript's own exit hook, so it runs first (atexit is LIFO):
    # that hook waits forever while any event handler is still registered.
    atexit.register(shutdown)
    try:
        # javascript.require() waits up to 900 s and, if loading fails, silently runs npm.
        # A relative name with an explicit folder takes the plain import path instead.
        return config.global_jsi.require("./runtime.js", None, str(BRIDGE_DIR), timeout=timeouts.BRIDGE_START_S)
    except Exception as e:  # noqa: BLE001 - JSPyBridge raises bare Exception on timeouts
        javascript.terminate()
        raise BridgeError(f"the Node bridge failed to start: {first_line(e)}; see {bridge_log_path()}") from None


def _quiet_late_replies(hook: Callable[[Any], object], reader: threading.Thread) -> Callable[[Any], object]:
    """`hook`, but silent on the one way JSPyBridge's `reader` thread dies of a call abandoned
    halfway (Ctrl-C, whichever call it caught): it hands the late reply over through a barrier
    nobody waits at any more, and dies of BrokenBarrierError 5 s later, a traceback on stderr
    after a clean Ctrl-C. Nothing else breaks that barrier; any other thread error is reported."""

    def quiet(args: Any) -> object:
        if args.thread is reader and args.exc_type is threading.BrokenBarrierError:
            return None
        return hook(args)

    return quiet


def register(connection: Closable) -> None:
    _connections.add(connection)


def node_pid() -> int | None:
    """The Node bridge's process id; None before it started or after it ended."""
    if _helpers is None or _shut_down:
        return None
    from javascript import connection  # noqa: PLC0415 - only after the bridge started

    return connection.proc.pid if connection.proc is not None else None


def node_alive() -> bool:
    """Whether Node is running and may still be called."""
    from javascript import connection  # noqa: PLC0415 - only after the bridge started

    return not _abandoned and connection.proc is not None and connection.proc.poll() is None


@contextmanager
def guarded() -> Iterator[None]:
    """Around every call into Node: an interrupt halfway abandons the bridge (see `_abandoned`)."""
    global _abandoned
    try:
        yield
    except KeyboardInterrupt:
        _abandoned = True
        raise


def shutdown() -> None:
    """Closes every bot, removes their handlers and stops Node. Idempotent; also runs at exit."""
    global _shut_down
    with _lock:
        started, _shut_down = _helpers is not None and not _shut_down, True
    if not started:
        return
    for connection in list(_connections):
        connection.close()
    import javascript  # noqa: PLC0415
    from javascript import connection  # noqa: PLC0415

    javascript.terminate()  # SIGTERM; wait so that no Node process outlives this call
    try:
        connection.proc.wait(timeout=timeouts.QUIT_S)
    except subprocess.TimeoutExpired:
        connection.proc.kill()
        connection.proc.wait()
