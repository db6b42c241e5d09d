"""`sglang:URL`: a real SGLang server, the production path on a GPU.

`sgl.RuntimeEndpoint` already does everything the planner needs server-side: prefix caching,
`select` by log-likelihood, regex and JSON-schema constrained decoding. This adds the usage
meter, with the server's own count of cached prompt tokens.
"""

from __future__ import annotations

from sglang.lang.backend.runtime_endpoint import RuntimeEndpoint

from agent.llm.base import Capabilities, LlmError, Metered


class SglangBackend(Metered, RuntimeEndpoint):
    capabilities = Capabilities(select=True, json_schema=True, regex=True)

    def __init__(self, url: str):
        self.name = f"sglang:{url}"
        try:
            super().__init__(url.rstrip("/"))
        except Exception as e:  # connection refused, not an SGLang server, ...
            raise LlmError(f"{self.name}: cannot reach an SGLang server: {type(e).__name__}: {e}") from e

    def generate(self, s, sampling_params):
        with self.metered("gen", s.text_) as meter:
            text, meta = super().generate(s, sampling_params)
            meter.completion = text
            meter.prompt_tokens = int(meta.get("prompt_tokens", 0))
            meter.prefilled_tokens = meter.prompt_tokens - int(meta.get("cached_tokens", 0))
            meter.completion_tokens = int(meta.get("completion_tokens", 0))
        return text, meta

    def select(self, s, choices, temperature, choices_method=None):
        with self.metered("select", s.text_, list(choices)) as meter:
            decision = super().select(s, choices, temperature, choices_method)
            meter.completion = decision.decision
        return decision
