"""Starting and stopping flying-squid as a child Node process (bridge/server.js)."""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from agent.errors import McAgentError
from agent.mc.version import DEFAULT_VERSION
from agent.node import node_binary, node_environment, require_node_modules
from agent.paths import SERVER_LAUNCHER
from agent.server.exposure import require_loopback_or_public
from agent.server.scenario import Scenario
from agent.server.settings import GAME_MODES, ServerSettings

# flying-squid is ready 0.25-0.5 s after Node starts; loading its packages takes
# 1-3 s on a busy 2-core machine. Past this something is wrong.
READY_TIMEOUT_S = 30.0
# server.js saves and exits within 3 s of SIGTERM; past this it is killed.
STOP_TIMEOUT_S = 5.0
# Output lines kept for error messages and `log_tail()`.
LOG_LINES_KEPT = 200
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class ServerError(McAgentError):
    """The local server could not start, or died."""


class ServerInfo(BaseModel):
    """Where a started local server listens and what it serves."""

    model_config = ConfigDict(frozen=True)
    host: str
    port: int
    version: str
    generator: str
    seed: int
    world: str | None
    scenario: str | None = None
    restored: int = 0  # block changes put back from the journal (a restart)
    public: bool = False  # open to the network: only `operators` are operators
    operators: tuple[str, ...] = ()


class LocalServer:
    """A flying-squid server in its own Node process, as a context manager.

    A scenario (agent/server/scenario.py) is built before the server reports ready. With a
    `journal` file, every block change is appended to it as it happens, and `restart()` puts
    them back (bridge/lib/block-journal.js): a server that died, even by SIGKILL, comes back
    with what the bot dug and built, on the port it had. A host other than loopback needs
    `public` (agent/server/exposure.py).

    >>> with LocalServer(ServerSettings(), port=0) as info:
    ...     print(info.port)
    """

    def __init__(
        self,
        settings: ServerSettings,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        version: str = DEFAULT_VERSION,
        scenario: Scenario | None = None,
        ready_timeout_s: float = READY_TIMEOUT_S,
        on_log: Callable[[str], None] | None = None,
        journal: Path | None = None,
        public: bool = False,
    ):
        require_loopback_or_public(host, public)
        self.options = settings.flying_squid_options(host=host, port=port, version=version, public=public)
        self.public, self.operators = public, tuple(settings.operators)
        if journal is not None:
            self.options["mcagent_journal"] = str(journal)
        if scenario is not None:
            self.options["mcagent_scenario"] = scenario.model_dump(mode="json", by_alias=True)
            if scenario.game_mode is not None:
                self.options["gameMode"] = GAME_MODES[scenario.game_mode]
            if scenario.terrain is not None:
                terrain = scenario.terrain
                self.options["generation"] = {"name": terrain.generator, "options": {"seed": terrain.seed}}
        self.ready_timeout_s = ready_timeout_s
        self.on_log = on_log
        self.info: ServerInfo | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._log: deque[str] = deque(maxlen=LOG_LINES_KEPT)
        self._ready = threading.Event()
        self._failure: str | None = None
        self._reader: threading.Thread | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def log_tail(self, lines: int = 10) -> list[str]:
        return list(self._log)[-lines:]

    def start(self) -> ServerInfo:
        """Starts the server and waits until it accepts players; raises ServerError otherwise."""
        if self._proc is not None:
            raise ServerError("this LocalServer was already started")
        require_node_modules()
        self._proc = subprocess.Popen(
            [node_binary(), str(SERVER_LAUNCHER), json.dumps(self.options)],
            stdin=subprocess.DEVNULL,  # flying-squid's console would read it
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=node_environment(),
        )
        self._reader = threading.Thread(target=self._read_output, name="local-server-output", daemon=True)
        self._reader.start()
        if not self._ready.wait(self.ready_timeout_s):
            self.stop()
            raise ServerError(f"local server was not ready within {self.ready_timeout_s:g} s{self._last_words()}")
        if self.info is None:
            self._reader.join(timeout=STOP_TIMEOUT_S)
            code = self._proc.wait(timeout=STOP_TIMEOUT_S)
            reason = self._failure or f"exit code {code}{self._last_words()}"
            self._proc = None
            raise ServerError(f"local server failed to start: {reason}")
        return self.info

    def restart(self) -> ServerInfo:
        """Starts the server again, on the port it had, after it died or was stopped."""
        if self.info is None:
            raise ServerError("this LocalServer was never started")
        self.stop()
        self.options["port"] = self.info.port
        self.info, self._failure = None, None
        self._ready.clear()
        return self.start()

    def _read_output(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for raw in self._proc.stdout:
            line = _ANSI.sub("", raw.rstrip("\n")).lstrip("> ")
            if line.startswith('{"mcagent"'):
                self._handle_message(json.loads(line))
                continue
            if line:
                self._log.append(line)
                if self.on_log:
                    self.on_log(line)
        self._ready.set()  # output ended: the process is gone, ready or not

    def _handle_message(self, message: dict) -> None:
        if message["mcagent"] == "ready":
            ready = {k: v for k, v in message.items() if k != "mcagent"}
            self.info = ServerInfo.model_validate({**ready, "public": self.public, "operators": self.operators})
        else:
            self._failure = message.get("message", "unknown error")
        self._ready.set()

    def _last_words(self) -> str:
        tail = self.log_tail(3)
        return f"; last output: {' | '.join(tail)}" if tail else ""

    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def ended_within(self, seconds: float) -> bool:
        """Whether the process is seen ended within `seconds` (False at once when never started)."""
        until = time.monotonic() + seconds
        while self.running() and time.monotonic() < until:
            time.sleep(0.05)
        return self._proc is not None and not self.running()

    def ended_how(self) -> str:
        """How the process ended, for a person: "killed by signal 9", "exit code 1"."""
        code = self._proc.poll() if self._proc is not None else None
        if code is None:
            return "running" if self._proc is not None else "stopped"
        return f"killed by signal {-code}" if code < 0 else f"exit code {code}"

    def stop(self) -> None:
        """SIGTERM (the server saves its world and exits), then SIGKILL if it lingers. Idempotent."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._reader is not None:
            self._reader.join(timeout=STOP_TIMEOUT_S)

    def __enter__(self) -> ServerInfo:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
