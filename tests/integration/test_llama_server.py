"""The model servers LocalLlamaServer starts with the default model, by both engines (llama.cpp's
llama-server, built by scripts/bootstrap.sh, and llama-cpp-python's server): each answers,
lists its alias, names itself by the spec that uses it, and leaves no process behind, whether
it stops, its body raises, or it fails to start. Processes are found by the token their
environment inherits (support.procs)."""

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
from agent.serving.model_server import ENGINES, LocalLlamaServer  # noqa: E402
from support.procs import TOKEN_VAR, new_token, processes_with_token  # noqa: E402

# How each engine says it cannot read a model file.
LOAD_FAILURE = {"llama-server": "failed to load model", "llama-cpp-python": "Failed to load model"}


@pytest.fixture
def token(monkeypatch: pytest.MonkeyPatch) -> str:
    """A token every process started by the test inherits."""
    value = new_token()
    monkeypatch.setenv(TOKEN_VAR, value)
    return value


@pytest.fixture(scope="module", params=ENGINES)
def ran(request: pytest.FixtureRequest) -> Iterator[dict]:
    """One server per engine, started and stopped: what was seen while it ran and after."""
    value = new_token()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(TOKEN_VAR, value)
        with LocalLlamaServer(engine=request.param, threads=1) as server:
            with urllib.request.urlopen(f"{server.base_url}/models", timeout=10) as response:
                models = json.load(response)
            running = processes_with_token(value)
            groups = {os.getpgid(pid) for pid in running}
            pid = server.pid
    yield {"server": server, "models": models, "running": running, "groups": groups, "pid": pid,
           "after": processes_with_token(value)}


def test_lists_its_alias_and_names_itself(ran: dict) -> None:
    server = ran["server"]
    assert [m["id"] for m in ran["models"]["data"]] == ["smollm2-135m"]
    assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
    native = f"llama-server:http://127.0.0.1:{server.port}"
    openai = f"openai:http://127.0.0.1:{server.port}/v1#smollm2-135m"
    assert server.spec() == (native if server.engine == "llama-server" else openai)
    assert server.spec("completion") == f"openai:http://127.0.0.1:{server.port}/v1?mode=completion#smollm2-135m"


def test_no_process_outlives_the_with(ran: dict) -> None:
    # llama-server runs under process_group's guard, in the guard's group: two processes.
    assert ran["pid"] in ran["running"] and len(ran["running"]) == (2 if ran["server"].engine == "llama-server" else 1)
    assert ran["groups"] == {ran["pid"]}
    assert ran["after"] == [] and ran["server"].pid is None
    with pytest.raises(ProcessLookupError):
        os.killpg(ran["pid"], 0)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_body_that_raises_still_stops_it(engine: str, token: str) -> None:
    with pytest.raises(RuntimeError, match="body"), LocalLlamaServer(engine=engine, threads=1) as server:
        assert server.pid in processes_with_token(token)
        raise RuntimeError("body")
    assert processes_with_token(token) == []


def test_a_missing_model_is_one_line_and_starts_nothing(tmp_path: Path, token: str) -> None:
    with pytest.raises(ConfigError, match="absent.gguf") as failure:
        LocalLlamaServer(tmp_path / "absent.gguf").start()
    assert "\n" not in str(failure.value)
    assert processes_with_token(token) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_server_that_dies_starting_is_one_line_with_its_last_words(engine: str, tmp_path: Path, token: str) -> None:
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"not a gguf file\n" * 100)
    server = LocalLlamaServer(bogus, engine=engine, threads=1)
    with pytest.raises(LlmError) as failure:
        server.start()
    message = str(failure.value)
    assert "\n" not in message and "exited with code 1" in message and LOAD_FAILURE[engine] in message, message
    assert processes_with_token(token) == [] and server.pid is None
    assert server.log_path is None  # its temporary log is removed too


def test_slots_are_for_llama_server_only() -> None:
    with pytest.raises(ConfigError, match="llama-cpp-python's server 1"):
        LocalLlamaServer(engine="llama-cpp-python", parallel=2)
    with pytest.raises(ConfigError, match="--plain is llama-cpp-python's server unmodified"):
        LocalLlamaServer(plain=True)
    with pytest.raises(ConfigError, match="unknown engine 'vllm'"):
        LocalLlamaServer(engine="vllm")  # type: ignore[arg-type]
