"""`--llm SPEC` to a backend. Every backend runs the same SGLang programs.

    sglang:URL                a real SGLang server (the production path, on a GPU)
    openai:BASE_URL#MODEL     any OpenAI-compatible server, in completion mode
    llamacpp[:PATH.gguf]      llama.cpp in this process; default SmolLM2-135M-Instruct
    scripted:PATH             canned replies from a YAML/JSON list or a .py reply(call)
    replay:TRACE              the LLM replies a trace recorded, in order
    random[:SEED]             the baseline: uniform choices, random arguments inside the schema
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from agent.errors import ConfigError
from agent.llm.base import Metered
from agent.llm.random_policy import RandomBackend
from agent.llm.runtime import SglangBackend
from agent.llm.scripted import load_script

Kind = Literal["sglang", "openai", "llamacpp", "scripted", "replay", "random"]
ACCEPTED = "sglang:URL, openai:BASE_URL#MODEL, llamacpp[:PATH.gguf], scripted:PATH, replay:TRACE or random[:SEED]"


class BackendSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Kind
    target: str = ""  # the URL, the file, or random's seed
    model: str = ""  # openai only


def parse_spec(text: str) -> BackendSpec:
    kind, _, target = text.partition(":")
    if kind == "llamacpp":
        return BackendSpec(kind="llamacpp", target=target)
    if kind == "random":
        if text != "random" and not re.fullmatch(r"-?\d+", target):
            raise ConfigError(f"llm: random: the seed must be an integer, got {target!r}")
        return BackendSpec(kind="random", target=target or "0")
    if kind not in ("sglang", "openai", "scripted", "replay") or not target:
        raise ConfigError(f"llm: unknown backend spec {text!r} (accepted: {ACCEPTED})")
    if kind in ("sglang", "openai") and not target.startswith(("http://", "https://")):
        raise ConfigError(f"llm: {kind}: expected an http:// or https:// URL, got {target!r}")
    if kind == "openai":
        base_url, _, model = target.partition("#")
        if not model:
            raise ConfigError(f"llm: openai: name the model after '#', e.g. openai:{base_url}#qwen2.5-7b-instruct")
        return BackendSpec(kind="openai", target=base_url, model=model)
    return BackendSpec(kind=kind, target=target)


def open_backend(text: str, threads: int | None = None) -> Metered:
    """The backend `text` names, ready to serve. Bad specs raise ConfigError; unreachable servers LlmError.
    `threads` bounds the CPU threads of an in-process model (llamacpp); None: every core."""
    spec = parse_spec(text)
    if spec.kind == "replay":
        return importlib.import_module("agent.llm.replay").ReplayBackend(Path(spec.target))
    if spec.kind == "scripted":
        return load_script(Path(spec.target))
    if spec.kind == "sglang":
        return SglangBackend(spec.target)
    if spec.kind == "random":
        return RandomBackend(int(spec.target))
    # These two load only when asked: openai costs a quarter second of start-up, and
    # llama-cpp-python is an optional, compiled dependency.
    if spec.kind == "openai":
        return importlib.import_module("agent.llm.openai_compat").OpenAiBackend(spec.target, spec.model)
    return _llamacpp_module().LlamaCppBackend(Path(spec.target) if spec.target else None, threads=threads)


def _llamacpp_module():
    """llama-cpp-python is compiled at install time and optional: say how to get it when missing."""
    try:
        return importlib.import_module("agent.llm.llamacpp")
    except ImportError as e:
        if e.name != "llama_cpp":
            raise
        raise ConfigError(
            "llm: llamacpp needs llama-cpp-python, which is not installed: run scripts/bootstrap.sh "
            "(it builds it once and caches the wheel) or pip install 'mcagent[llamacpp]'"
        ) from None
