"""LLM backends for the planner: SGLang backends with capabilities and a usage meter.

    backend = open_backend("llamacpp")       # or sglang:URL, openai:BASE_URL#MODEL, scripted:PATH, random:SEED
    backend.capabilities.select              # can it constrain a choice?
    backend.usage                            # calls, seconds, tokens
    backend.complete("Summarize: ...")       # what llm tools call
"""

from agent.llm.base import Capabilities, LlmError, Metered, Usage
from agent.llm.spec import BackendSpec, open_backend, parse_spec

__all__ = ["BackendSpec", "Capabilities", "LlmError", "Metered", "Usage", "open_backend", "parse_spec"]
