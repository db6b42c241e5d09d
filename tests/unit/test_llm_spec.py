"""--llm SPEC: parsing, opening, and the OpenAI-compatible and SGLang backends without a network."""

from __future__ import annotations

import re
import socket

import pytest

from agent.errors import ConfigError
from agent.llm import LlmError, open_backend, parse_spec
from agent.config import AgentConfig
from agent.llm.http import HttpPolicy
from agent.llm.backend_spec import on_lane, open_configured


@pytest.mark.parametrize(("text", "kind", "target", "model"), [
    ("sglang:http://gpu:30000", "sglang", "http://gpu:30000", ""),
    ("llama-server:http://127.0.0.1:8080", "llama-server", "http://127.0.0.1:8080", ""),
    ("openai:http://127.0.0.1:8080/v1#qwen2.5-7b", "openai", "http://127.0.0.1:8080/v1", "qwen2.5-7b"),
    ("llamacpp", "llamacpp", "", ""),
    ("llamacpp:/models/x.gguf", "llamacpp", "/models/x.gguf", ""),
    ("llamacpp:gemma3-270m", "llamacpp", "gemma3-270m", ""),
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
    ("llama-server:127.0.0.1:8080", "expected an http:// or https:// URL"),
    ("llama-server:http://127.0.0.1:8080?slot=-1", "slot must be a whole number from 0, got '-1'"),
    ("llama-server:http://127.0.0.1:8080?slots=2", "unknown option 'slots' .accepted: slot."),
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


def test_an_unreachable_openai_server_is_one_llm_error_at_open():
    with pytest.raises(LlmError, match=r"^openai:http://127.0.0.1:\d+/v1#m: .*/models: the server cannot be reached"):
        open_backend(f"openai:http://127.0.0.1:{_closed_port()}/v1#m", policy=HttpPolicy(retries=0))


@pytest.mark.parametrize(("text", "options"), [
    ("openai:http://h/v1?mode=chat#m", {"mode": "chat"}),
    ("openai:http://h/v1?mode=completion&constraint=none&template=qwen#m",
     {"mode": "completion", "constraint": "none", "template": "qwen"}),
])
def test_openai_options_come_after_the_url(text, options):
    spec = parse_spec(text)
    assert (spec.target, spec.model, spec.options) == ("http://h/v1", "m", options)


@pytest.mark.parametrize(("text", "problem"), [
    ("openai:http://h/v1?mode=stream#m", "mode must be one of completion, chat, got 'stream'"),
    ("openai:http://h/v1?key=sk-1#m", "unknown option 'key' (accepted: mode, constraint, template)"),
])
def test_bad_openai_options_say_what_is_accepted(text, problem):
    with pytest.raises(ConfigError, match=re.escape(problem)):
        parse_spec(text)


def test_the_config_says_whether_the_model_is_asked_for_free_text(tmp_path):
    script = tmp_path / "replies.yaml"
    script.write_text("[]\n")
    spec = f"scripted:{script}"
    assert open_configured(AgentConfig(llm=spec)).capabilities.thoughts is True
    assert open_configured(AgentConfig(llm=spec, llm_thoughts=False)).capabilities.thoughts is False
    assert open_backend("random:3").capabilities.thoughts is False  # its free text is drawn at random


def test_an_eval_lane_becomes_the_slot_of_a_llama_server_that_names_none():
    assert on_lane("llama-server:http://127.0.0.1:8080", 3) == "llama-server:http://127.0.0.1:8080?slot=3"
    assert parse_spec(on_lane("llama-server:http://127.0.0.1:8080", 3)).options == {"slot": "3"}
    assert on_lane("llama-server:http://127.0.0.1:8080?slot=0", 3) == "llama-server:http://127.0.0.1:8080?slot=0"
    assert on_lane("openai:http://127.0.0.1:8080/v1#m", 3) == "openai:http://127.0.0.1:8080/v1#m"
    assert on_lane("llamacpp", 1) == "llamacpp"
