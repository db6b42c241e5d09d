"""`--llm SPEC` to a backend. Every backend runs the same SGLang programs.

    sglang:URL                a real SGLang server (the production path, on a GPU)
    llama-server:URL[?slot=N] llama.cpp's own server (`mcagent llm serve` starts one), natively:
                                slot=N   the server slot this agent keeps (modulo the slots);
                                         else the server picks one per request
    openai:BASE_URL#MODEL     any OpenAI-compatible server; options after the URL, e.g.
                              openai:http://127.0.0.1:8080/v1?mode=chat#qwen2.5-7b-instruct
                                mode=completion|chat      else probed: completion where served
                                constraint=grammar|json_schema|none   else probed
                                template=NAME             completion mode's chat template
                                                          (an SGLang name; else by model, chatml)
    llamacpp[:MODEL]          llama.cpp in this process; MODEL: smollm2-135m (the default),
                              gemma3-270m (each from its PyPI package), or PATH.gguf
    scripted:PATH             canned replies from a YAML/JSON list or a .py reply(call)
    replay:TRACE              the LLM replies a trace recorded, in order
    random[:SEED]             the baseline: uniform choices, random arguments inside the schema
"""

from __future__ import annotations

import importlib
import os
import re
import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from agent.config import AgentConfig
from agent.errors import ConfigError
from agent.llm.base import Metered
from agent.llm.http import HttpPolicy
from agent.llm.llama_server import LlamaServerBackend
from agent.llm.random_policy import RandomBackend
from agent.llm.sglang_native import SglangBackend
from agent.llm.scripted import load_script

# Where an openai server's API key is read from unless the config names another variable.
API_KEY_VARIABLE = "OPENAI_API_KEY"
Kind = Literal["sglang", "llama-server", "openai", "llamacpp", "scripted", "replay", "random"]
ACCEPTED = ("sglang:URL, llama-server:URL[?slot=N], openai:BASE_URL#MODEL, llamacpp[:NAME|PATH.gguf], "
            "scripted:PATH, replay:TRACE or random[:SEED]")
# openai: options, each with the values it accepts (None: any name).
OPENAI_OPTIONS: dict[str, tuple[str, ...] | None] = {
    "mode": ("completion", "chat"), "constraint": ("grammar", "json_schema", "none"), "template": None,
}


class BackendSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Kind
    target: str = ""  # the URL, the file, llamacpp's model name, or random's seed
    model: str = ""  # openai only
    options: dict[str, str] = {}  # openai's OPENAI_OPTIONS, llama-server's slot: given after the URL


def parse_spec(text: str) -> BackendSpec:
    kind, _, target = text.partition(":")
    if kind == "llamacpp":
        return BackendSpec(kind="llamacpp", target=target)
    if kind == "random":
        if text != "random" and not re.fullmatch(r"-?\d+", target):
            raise ConfigError(f"llm: random: the seed must be an integer, got {target!r}")
        return BackendSpec(kind="random", target=target or "0")
    if kind not in ("sglang", "llama-server", "openai", "scripted", "replay") or not target:
        raise ConfigError(f"llm: unknown backend spec {text!r} (accepted: {ACCEPTED})")
    if kind in ("sglang", "llama-server", "openai") and not target.startswith(("http://", "https://")):
        raise ConfigError(f"llm: {kind}: expected an http:// or https:// URL, got {target!r}")
    if kind == "openai":
        url, _, model = target.partition("#")
        base_url, _, query = url.partition("?")
        if not model:
            raise ConfigError(f"llm: openai: name the model after '#', e.g. openai:{base_url}#qwen2.5-7b-instruct")
        return BackendSpec(kind="openai", target=base_url, model=model, options=_openai_options(query))
    if kind == "llama-server":
        base_url, _, query = target.partition("?")
        return BackendSpec(kind="llama-server", target=base_url, options=_slot_option(query))
    return BackendSpec(kind=kind, target=target)


def _query(kind: str, query: str, names: Iterable[str]) -> dict[str, str]:
    """The options after a spec's URL, each one of `names`; an unknown one is a ConfigError."""
    options = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
    unknown = next((name for name in options if name not in names), None)
    if unknown is not None:
        raise ConfigError(f"llm: {kind}: unknown option {unknown!r} (accepted: {', '.join(names)})")
    return options


def _slot_option(query: str) -> dict[str, str]:
    options = _query("llama-server", query, ["slot"])
    if not options.get("slot", "0").isdigit():
        raise ConfigError(f"llm: llama-server: slot must be a whole number from 0, got {options['slot']!r}")
    return options


def on_lane(text: str, lane: int) -> str:
    """The spec an eval's worker `lane` (0, 1, ...) opens: a llama-server spec that names no slot
    gets the lane's, so that each of the workers sharing a server keeps a slot's cache of its
    own; every other spec is `text` itself."""
    spec = parse_spec(text)
    if spec.kind != "llama-server" or "slot" in spec.options:
        return text
    return f"llama-server:{spec.target}?slot={lane}"


def _openai_options(query: str) -> dict[str, str]:
    options = _query("openai", query, OPENAI_OPTIONS)
    for name, value in options.items():
        accepted = OPENAI_OPTIONS[name]
        if accepted is not None and value not in accepted:
            raise ConfigError(f"llm: openai: {name} must be one of {', '.join(accepted)}, got {value!r}")
    if options.get("mode") == "completion" and options.get("constraint") == "json_schema":
        raise ConfigError("llm: openai: constraint=json_schema needs mode=chat (response_format is a chat field); "
                          "completion mode takes grammar or none")
    return options


def open_backend(text: str, threads: int | None = None, *, api_key_env: str = API_KEY_VARIABLE,
                 policy: HttpPolicy = HttpPolicy()) -> Metered:
    """The backend `text` names, ready to serve. Bad specs raise ConfigError; unreachable servers LlmError.
    `threads` bounds the CPU threads of an in-process model (llamacpp); None: every core.
    `api_key_env` names the variable holding an openai server's key (none set: no key);
    `policy` bounds the requests to a server (timeout, retries)."""
    spec = parse_spec(text)
    if spec.kind == "replay":
        return importlib.import_module("agent.llm.replay").ReplayBackend(Path(spec.target))
    if spec.kind == "scripted":
        return load_script(Path(spec.target))
    if spec.kind == "sglang":
        return SglangBackend(spec.target, policy=policy, api_key=api_key(api_key_env))
    if spec.kind == "llama-server":
        slot = int(spec.options["slot"]) if "slot" in spec.options else None
        return LlamaServerBackend(spec.target, slot=slot, api_key=api_key(api_key_env), key_variable=api_key_env,
                                  policy=policy)
    if spec.kind == "random":
        return RandomBackend(int(spec.target))
    # These two load only when asked: openai costs a quarter second of start-up, and
    # llama-cpp-python is an optional, compiled dependency.
    if spec.kind == "openai":
        backend = importlib.import_module("agent.llm.openai_compat").OpenAiBackend
        return backend(spec.target, spec.model, **spec.options, api_key=api_key(api_key_env), key_variable=api_key_env,
                       policy=policy)
    return _llamacpp_module().LlamaCppBackend(spec.target, threads=threads)


def api_key(variable: str) -> str:
    """The key in `variable`, without the line end an env file may leave; none set: no key."""
    key = os.environ.get(variable, "").strip()
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in key):
        raise ConfigError(f"llm: the API key in ${variable} holds a control character; it cannot go in a header")
    return key


def open_configured(config: AgentConfig, text: str | None = None) -> Metered:
    """The backend `text` names (default: the config's `llm`), opened as the config says: an
    in-process model's threads, the variable holding an API key, how long and how often a
    server is asked, and whether the planner asks the model for free text (llm_thoughts)."""
    backend = open_backend(text or config.llm, threads=config.llm_threads, api_key_env=config.llm_api_key_env,
                           policy=HttpPolicy(timeout_s=config.llm_timeout_s, retries=config.llm_retries))
    if config.llm_thoughts is not None:
        backend.capabilities = backend.capabilities.model_copy(update={"thoughts": config.llm_thoughts})
    return backend


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
