"""llama-cpp-python's OpenAI-compatible server, saying how much of each prompt it computed.

    python -m agent.serving.serve --model M.gguf --host 127.0.0.1 --port 8080   # llama_cpp.server's flags

The server reuses the KV cache of the longest prefix a prompt shares with the one before, but
its replies do not say so: `usage` holds only prompt and completion tokens. This runs the same
server (`llama_cpp.server`'s own main, every flag unchanged) with one addition, OpenAI's
`usage.prompt_tokens_details.cached_tokens`, which hosted APIs and vLLM already report and
which the `openai:` backend reads to count prefilled tokens. The figure is measured, not
inferred: the prompt tokens the model evaluated, subtracted from the prompt.
"""

from __future__ import annotations

import importlib
import os
import signal
from typing import Any

import llama_cpp
import llama_cpp.llama_types as replies
from typing_extensions import NotRequired, TypedDict

from agent.process_group import when_parent_dies


class PromptTokensDetails(TypedDict):
    cached_tokens: int


class ReportingLlama(llama_cpp.Llama):
    """A Llama whose completions say how many prompt tokens came from its KV cache."""

    def generate(self, tokens, *args: Any, **kwargs: Any):
        self._prompt_evaluated: int | None = None  # set by the first eval: the prompt's uncached part
        yield from super().generate(tokens, *args, **kwargs)

    def eval(self, tokens) -> None:
        if getattr(self, "_prompt_evaluated", 0) is None:
            self._prompt_evaluated = len(tokens)
        super().eval(tokens)

    def create_completion(self, *args: Any, **kwargs: Any):
        out = super().create_completion(*args, **kwargs)
        evaluated = getattr(self, "_prompt_evaluated", None)
        if isinstance(out, dict) and evaluated is not None:  # a stream reports nothing
            usage = out["usage"]
            usage["prompt_tokens_details"] = {"cached_tokens": max(usage["prompt_tokens"] - evaluated, 0)}
        return out


def main() -> None:
    # Started in a session of its own (model_server.py), it would outlive a parent killed by
    # SIGKILL; and SIGTERM waits for a generation in flight, so the whole group goes at once.
    when_parent_dies(lambda: os.killpg(os.getpgrp(), signal.SIGKILL))
    # The server validates its replies against llama_types' TypedDicts, which drop every key they
    # do not name: name this one, before the server's routes are declared (on import).
    replies.CompletionUsage.__annotations__["prompt_tokens_details"] = NotRequired[PromptTokensDetails]
    replies.CompletionUsage.__optional_keys__ |= {"prompt_tokens_details"}
    # It builds its model with llama_cpp.Llama, looked up when the model loads.
    llama_cpp.Llama = ReportingLlama
    importlib.import_module("llama_cpp.server.__main__").main()


if __name__ == "__main__":
    main()
