"""`select` by log-likelihood on an in-process llama.cpp model.

Each choice is scored by the mean log-probability of the tokens it adds to the prompt. The
choices are tokenized together with the prompt (so a token that merges across the boundary
is scored as the model would write it) and walked as a trie: a token shared by several
choices is evaluated once, and the prompt itself comes from the KV cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import llama_cpp
import numpy as np
from sglang.lang.choices import ChoicesDecision, ChoicesSamplingMethod

from agent.llm.base import LlmError, Meter, choices_base, common_prefix


@dataclass
class _Node:
    children: dict[int, _Node] = field(default_factory=dict)
    ends: list[int] = field(default_factory=list)  # indexes of the choices that end here


def tokenize(llama: llama_cpp.Llama, text: str) -> list[int]:
    """As the model reads a rendered chat: its BOS if it wants one, special tokens as tokens."""
    return llama.tokenize(text.encode("utf-8"), add_bos=True, special=True)


def cached_prefix(llama: llama_cpp.Llama, tokens: list[int]) -> int:
    """How many leading `tokens` the KV cache already holds."""
    return common_prefix(llama.input_ids[: llama.n_tokens].tolist(), tokens)


def select(
    llama: llama_cpp.Llama, text: str, choices: list[str], method: ChoicesSamplingMethod, meter: Meter
) -> ChoicesDecision:
    if method.requires_unconditional_logprobs:
        raise LlmError(f"llamacpp: select with {type(method).__name__} is not supported")
    prompt = tokenize(llama, text)
    full = [tokenize(llama, text + choice) for choice in choices]
    base = choices_base(prompt, full, "llamacpp")
    keep = min(cached_prefix(llama, prompt[:base]), base - 1)
    llama.n_tokens = keep
    # The prompt's last token by itself: its logits (every choice's first token) then come from
    # the same computation on every call, whatever the cache held before. From a batch with
    # the prompt's new tokens they differ in the last digits, and near-ties change places.
    llama.eval(prompt[keep:base - 1])
    llama.eval(prompt[base - 1:base])
    meter.prompt_tokens, meter.prefilled_tokens = len(prompt), base - keep
    root = _Node()
    for index, tokens in enumerate(full):
        node = root
        for token in tokens[base:]:
            node = node.children.setdefault(token, _Node())
        node.ends.append(index)
    scored: dict[int, list[tuple[float, int]]] = {}
    meter.scored_tokens = _walk(llama, root, base, _logprobs(llama), [], scored)
    per_choice = [scored[i] for i in range(len(choices))]
    return method(
        choices=list(choices),
        normalized_prompt_logprobs=[float(np.mean([lp for lp, _ in path])) for path in per_choice],
        input_token_logprobs=[[(lp, token, None) for lp, token in path] for path in per_choice],
        output_token_logprobs=[[] for _ in choices],
    )


def _walk(llama, node: _Node, position: int, logprobs: np.ndarray, path, scored) -> int:
    """Scores every choice below `node`; returns how many tokens it evaluated on the way."""
    evaluated = 0
    for token, child in node.children.items():
        here = [*path, (float(logprobs[token]), token)]
        for index in child.ends:
            scored[index] = here
        if child.children:
            llama.n_tokens = position
            llama.eval([token])
            evaluated += 1 + _walk(llama, child, position + 1, _logprobs(llama), here, scored)
    return evaluated


def _logprobs(llama: llama_cpp.Llama) -> np.ndarray:
    """Log-softmax of the logits after the last evaluated token."""
    logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llama.ctx, -1), shape=(llama.n_vocab(),))
    shifted = logits - logits.max()
    return shifted - np.log(np.exp(shifted).sum())
