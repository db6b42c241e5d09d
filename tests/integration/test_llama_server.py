"""llama-cpp-python's OpenAI-compatible server, started by LocalLlamaServer with the default model:
it answers, lists its alias, and leaves no process behind, whether it stops, its body raises, or
it fails to start. Processes are found by the token their environment inherits (support.procs)."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp.server.app", reason="needs the llamacpp extra (scripts/bootstrap.sh)")

from agent.errors import ConfigError  # noqa: E402
from agent.llm.base import LlmError  # noqa: E402
from agent.llm.local_server import LocalLlamaServer  # noqa: E402
from support.procs import TOKEN_VAR, new_token, processes_with_token  # noqa: E402


@pytest.fixture
def token(monkeypatch: pytest.MonkeyPatch) -> str:
    """A token every process started by the test inherits."""
    value = new_token()
    monkeypatch.setenv(TOKEN_VAR, value)
    return value


@pytest.fixture(scope="module")
def ran() -> Iterator[dict]:
    """One server for the module, started and stopped: what was seen while it ran and after."""
    value = new_token()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(TOKEN_VAR, value)
        with LocalLlamaServer(threads=1) as server:
            with urllib.request.urlopen(f"{server.base_url}/models", timeout=10) as response:
                models = json.load(response)
            running = processes_with_token(value)
            pid = server.pid
    yield {"server": server, "models": models, "running": running, "pid": pid,
           "after": processes_with_token(value)}


def test_lists_its_alias_and_names_itself(ran: dict) -> None:
    server = ran["server"]
    assert [m["id"] for m in ran["models"]["data"]] == ["smollm2-135m"]
    assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
    assert server.spec() == f"openai:http://127.0.0.1:{server.port}/v1#smollm2-135m"
    assert server.spec("completion") == f"openai:http://127.0.0.1:{server.port}/v1?mode=completion#smollm2-135m"


def test_no_process_outlives_the_with(ran: dict) -> None:
    assert ran["running"] == [ran["pid"]]
    assert ran["after"] == [] and ran["server"].pid is None
    with pytest.raises(ProcessLookupError):
        os.killpg(ran["pid"], 0)


def test_a_body_that_raises_still_stops_it(token: str) -> None:
    with pytest.raises(RuntimeError, match="body"), LocalLlamaServer(threads=1) as server:
        assert processes_with_token(token) == [server.pid]
        raise RuntimeError("body")
    assert processes_with_token(token) == []


def test_a_missing_model_is_one_line_and_starts_nothing(tmp_path: Path, token: str) -> None:
    with pytest.raises(ConfigError, match="absent.gguf") as failure:
        LocalLlamaServer(tmp_path / "absent.gguf").start()
    assert "\n" not in str(failure.value)
    assert processes_with_token(token) == []


def test_a_server_that_dies_starting_is_one_line_with_its_last_words(tmp_path: Path, token: str) -> None:
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"not a gguf file\n" * 100)
    server = LocalLlamaServer(bogus, threads=1)
    with pytest.raises(LlmError) as failure:
        server.start()
    message = str(failure.value)
    assert "\n" not in message and "exited with code 1" in message and "Failed to load model" in message, message
    assert processes_with_token(token) == [] and server.pid is None
    assert server.log_path is None  # its temporary log is removed too
