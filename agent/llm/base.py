"""What every backend shares: its capabilities, its usage meter, and `complete` for llm tools.

Each backend is an SGLang `BaseBackend` (so the planner's SGLang programs run on all of them
unchanged) with this mixin on top. The planner reads `capabilities` to decide where it can
constrain the model (select, JSON schema) and where it must validate and retry instead.

The records a backend hands on (Capabilities, ModelInfo, Usage, LlmExchange) live in
agent/trace/records.py, since trace events embed them and the trace imports nothing above it.
"""

from __future__ import annotations

import hashlib
import importlib
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal

import sglang as sgl

from pydantic import BaseModel, ConfigDict, Field

from agent.errors import McAgentError
from agent.llm.sanitise import clean_text
from agent.trace.records import Capabilities, LlmExchange, ModelInfo, Usage

# llm tools get a reply of at most this many tokens unless they ask for another bound.
COMPLETE_MAX_TOKENS = 512
# A backend that cannot count tokens estimates a token as this many characters.
CHARS_PER_TOKEN = 4
# Below this many parameters a model's free text is not asked for (THOUGHTS, NEXT_TASK): SmolLM2-135M
# wrote "1.1.1.…" or one fixed sentence every step. `mcagent llm check` shows a model's; config
# llm_thoughts overrides.
THOUGHTS_MIN_PARAMS = 1_000_000_000
# The marker of ChatML in a GGUF's chat template (SmolLM2, Qwen, ...).
CHATML_MARK = "<|im_start|>"


class LlmError(McAgentError):
    """The backend could not answer: server unreachable, model missing, prompt too long."""

    def __init__(self, message: str) -> None:
        # The message may quote the server (an error body decoded from JSON can hold "\ud800"),
        # and it goes to the trace and the terminal like any other text from a backend.
        super().__init__(clean_text(message))


class SlotState(BaseModel):
    """One slot of a server that keeps a KV cache per agent (llama-server's /slots)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: int
    context_tokens: int = Field(description="the slot's own context")
    busy: bool
    held_tokens: int = Field(0, description="the tokens its KV cache holds: its latest prompt and reply")


class Meter:
    """One call being measured; the backend fills in the token counts it knows and the completion."""

    def __init__(self) -> None:
        self.completion = ""
        self.prompt_tokens = 0
        self.prefilled_tokens: int | None = None  # None: unknown, count the whole prompt
        self.completion_tokens = 0
        self.scored_tokens = 0


# Argument names must not collide with run()'s own sampling keywords (stop, temperature, ...).
@sgl.function
def _complete(s, prompt: str, reply_tokens: int, stop_at: list[str], heat: float):
    s += sgl.user(prompt)
    s += sgl.assistant(sgl.gen("reply", max_tokens=reply_tokens, stop=stop_at, temperature=heat))


class Metered:
    """Mixin for BaseBackend subclasses: usage accounting, capabilities, and LlmBackend.complete."""

    capabilities: Capabilities
    name: str  # the spec it was opened from, for summaries

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.usage = Usage()
        self.context_tokens = 0  # the prompt's size at the latest call
        self.on_call: Callable[[LlmExchange], None] | None = None  # told of every call that answered
        self._last_prompt = ""
        super().__init__(*args, **kwargs)

    @contextmanager
    def metered(self, kind: Literal["gen", "select"], prompt: str, choices: list[str] | None = None) -> Iterator[Meter]:
        """Times one backend call and adds its tokens to `usage`; library errors become LlmError.
        The backend puts its reply in `meter.completion`, cleaned here (sanitise.py) for the
        backend to return. A call that answered is told to `on_call`."""
        meter = Meter()
        started = time.perf_counter()
        try:
            yield meter
            meter.completion = clean_text(meter.completion)
        except LlmError:
            raise
        except Exception as e:  # a library or network failure, not our bug: the run ends with its reason
            raise LlmError(f"{self.name}: {type(e).__name__}: {e}") from e
        finally:
            usage = self.usage
            usage.calls += 1
            usage.seconds += time.perf_counter() - started
            usage.prompt_tokens += meter.prompt_tokens
            prefilled = meter.prompt_tokens if meter.prefilled_tokens is None else meter.prefilled_tokens
            usage.prefilled_tokens += prefilled
            usage.completion_tokens += meter.completion_tokens
            usage.scored_tokens += meter.scored_tokens
            self.context_tokens = meter.prompt_tokens or self.context_tokens
        # Outside the try: a listener's failure is ours, not the backend's.
        if self.on_call is not None:
            self.on_call(self._exchange(kind, prompt, choices, meter, time.perf_counter() - started))

    def _exchange(self, kind: Literal["gen", "select"], prompt: str, choices: list[str] | None, meter: Meter,
                  latency_s: float) -> LlmExchange:
        kept = common_prefix(self._last_prompt, prompt)
        self._last_prompt = prompt
        prefilled = meter.prompt_tokens if meter.prefilled_tokens is None else meter.prefilled_tokens
        return LlmExchange(
            backend=self.name, kind=kind, prompt_sha256=prompt_hash(prompt), prompt_chars=len(prompt),
            prompt_added=prompt[kept:], choices=choices, completion=meter.completion,
            tokens_in=meter.prompt_tokens, tokens_prefilled=prefilled, tokens_out=meter.completion_tokens,
            latency_s=latency_s,
        )

    def count_tokens(self, text: str) -> int:
        """How many tokens `text` is to the model: an estimate here, exact where the backend has
        the model's tokenizer (llamacpp)."""
        return len(text) // CHARS_PER_TOKEN

    def model_info(self) -> ModelInfo:
        """The model's name and context window; backends that can ask their model say more."""
        return ModelInfo(model=self.name)

    def slot_states(self) -> list[SlotState]:
        """The server's slots, each with its own prompt cache; none where the backend has no such thing."""
        return []

    def complete(self, prompt: str, **params: Any) -> str:
        """LlmBackend for llm tools: the prompt as one user turn, the reply as the assistant's."""
        state = _complete.run(
            prompt=prompt,
            reply_tokens=int(params.get("max_tokens", COMPLETE_MAX_TOKENS)),
            stop_at=stop_strings(params.get("stop")),
            heat=float(params.get("temperature", 0.0)),
            backend=self,
            use_thread=False,
        )
        return str(state["reply"]).strip()


def gbnf(write: Callable[[Any], str]) -> str:
    """The GBNF text `write(agent.llm.grammar)` gives, checked, for a llama.cpp server's `grammar`.
    grammar.py needs llama-cpp-python's schema converter, so it loads only for a grammar server."""
    module = importlib.import_module("agent.llm.grammar")
    try:
        return module.checked(write(module))
    except ValueError as e:
        raise LlmError(f"cannot write a grammar for this constraint: {e}") from None


def stop_strings(stop: str | list[str] | tuple[str, ...] | None) -> list[str]:
    """SglSamplingParams.stop is a string, a list or an empty tuple: always a list here."""
    if not stop:
        return []
    return [stop] if isinstance(stop, str) else [s for s in stop if s]


def chat_messages(s, name: str) -> list[dict[str, Any]]:
    """The conversation so far as chat messages. A chat API answers with a whole turn, so the
    assistant turn being asked for must be empty: text of ours inside it could not be sent.
    Neighbouring messages of one role are joined: strict chat templates (Mistral, Gemma) refuse
    two user turns in a row, which the planner writes (a result, then the next step)."""
    if s.cur_role == "assistant" and s.text_[s.cur_role_begin_pos:].strip():
        raise LlmError(f"{name}: a chat server answers whole turns, but the program wrote into the assistant "
                       "turn before asking")
    joined: list[dict[str, Any]] = []
    for message in s.messages_:
        if joined and joined[-1]["role"] == message["role"]:
            joined[-1] = {**joined[-1], "content": joined[-1]["content"] + "\n\n" + message["content"]}
        else:
            joined.append(dict(message))
    return joined


def cut_at_stop(text: str, stop: list[str]) -> str:
    """The interpreter keeps whatever the backend returns, so backends cut at the first stop string."""
    cut = min((i for i in (text.find(s) for s in stop) if i >= 0), default=len(text))
    return text[:cut]


def prompt_hash(prompt: str) -> str:
    return hashlib.sha256(prompt.encode("utf-8")).hexdigest()


def choices_base(prompt: list[int], full: list[list[int]], name: str) -> int:
    """Where `select` starts scoring: the first token at which any choice's tokens (`full`: the
    prompt and the choice tokenized together, so a token that merges across the boundary is
    scored as the model would write it) depart from the prompt's, keeping one token before it
    so that its logits (the first choice token's distribution) exist."""
    base = min(min(common_prefix(prompt, f) for f in full), min(len(f) for f in full) - 1)
    if base < 1:
        raise LlmError(f"{name}: select needs a prompt to score the choices after")
    return base


def common_prefix(a: Sequence, b: Sequence) -> int:
    """Length of the common prefix of two strings or lists, by bisection on C-speed slice
    comparisons (prompts grow long)."""
    if b[:len(a)] == a:
        return len(a)
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low
