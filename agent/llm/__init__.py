"""LLM backends for the planner: SGLang backends with capabilities and a usage meter.

    backend = open_backend("llamacpp")  # or sglang:URL, llama-server:URL, openai:BASE_URL#MODEL, scripted:PATH, random:SEED
    backend.capabilities.select              # can it constrain a choice?
    backend.usage                            # calls, seconds, tokens
    backend.complete("Summarize: ...")       # what llm tools call

Capabilities, ModelInfo and Usage are defined with the trace records (agent/trace/records.py).
"""

from agent.llm.base import LlmError, Metered
from agent.llm.backend_spec import BackendSpec, open_backend, parse_spec
from agent.trace.records import Capabilities, ModelInfo, Usage

__all__ = ["BackendSpec", "Capabilities", "LlmError", "Metered", "ModelInfo", "Usage", "open_backend", "parse_spec"]
