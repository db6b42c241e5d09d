"""The values the layers above hand the trace, and that its events embed: an LLM backend's
capabilities, usage and calls (agent/llm), and a command heard in chat (agent/chat).

They are defined here, not where they are made, so that the trace imports nothing above it:
agent.llm and agent.chat import them from this module.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Capabilities(BaseModel):
    """Which constraints the backend enforces while decoding, and what shape of turn it serves."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    # sgl.select: one of fixed strings; by log-likelihood in-process, on SGLang and on a llama.cpp
    # server in completion mode; elsewhere decoded under a grammar or schema of the choices
    select: bool
    json_schema: bool  # sgl.gen(json_schema=...): output always parses and fits the schema
    regex: bool = False  # sgl.gen(regex=...): output matches the pattern (a line that is not empty)
    # A chat API: it answers whole assistant turns only, so the planner asks each decision as
    # one JSON reply right after the turn opens, instead of field by field inside it.
    whole_turns: bool = False
    # Whether the model's free text (THOUGHTS, the outer loop's NEXT_TASK) is worth asking for. Off,
    # every decision is a constrained choice alone: a 135M model's THOUGHTS were "1.1.1.…", and
    # paid for with seconds of decoding each step. The config's llm_thoughts overrides it.
    thoughts: bool = True
    # A baseline policy (random, the first offer): it makes every choice itself, unweighed by the
    # runtime's prior (agent/planner/prior.py), so the tables keep their floors to compare with.
    baseline: bool = False


class ModelInfo(BaseModel):
    """What a backend says about the model behind it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    model: str
    context_tokens: int | None = Field(None, description="the context window in tokens; None: not said")


class Usage(BaseModel):
    """Totals over every call a backend served."""

    model_config = ConfigDict(extra="forbid")
    calls: int = 0
    seconds: float = 0.0
    prompt_tokens: int = 0  # the prompt's size, summed over calls
    prefilled_tokens: int = 0  # prompt tokens the model computed: not served from its KV cache
    completion_tokens: int = 0
    scored_tokens: int = 0  # candidate tokens `select` evaluated to compare the choices

    def minus(self, earlier: Usage) -> Usage:
        return Usage(**{name: getattr(self, name) - getattr(earlier, name) for name in Usage.model_fields})


class LlmExchange(BaseModel):
    """One backend call as the trace keeps it: the prompt by what it added, the reply whole."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    backend: str
    kind: Literal["gen", "select"]
    prompt_sha256: str = Field(description="of the whole prompt, UTF-8")
    prompt_chars: int
    prompt_added: str = Field(description="the prompt after the part it shares with the previous call's")
    choices: list[str] | None = Field(None, description="select only")
    completion: str = Field(description="what the backend answered: the text, or the chosen choice")
    tokens_in: int
    tokens_prefilled: int = Field(description="prompt tokens computed, not served from a KV cache")
    tokens_out: int
    latency_s: float


class ChatCommand(BaseModel):
    """One command heard in chat, and what became of it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    player: str
    command: str
    argument: str = ""
    accepted: bool
    reason: str = ""


# What became of a goal said in chat (agent/chat/commander.py): handed to the run; asked back,
# being read only in part; not understood at all; the player said no; no answer came in time;
# refused, as a command from a player not on the allowlist (or not trusted yet) is.
GoalOutcome = Literal["started", "asked", "not_understood", "declined", "timed_out", "refused"]


class GoalExchange(BaseModel):
    """One turn of a goal said to the bot in chat: the words heard, what the bot made of them, what
    it said back, and what it did."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    player: str
    said: str = Field("", description="the words heard: a goal, or an answer to a question; empty when none came")
    via: Literal["command", "whisper", "chat", "clock"] = Field(
        description="!goal; a whisper; a chat line naming the bot, or answering it; clock: the wait ran out")
    outcome: GoalOutcome
    understood: str = Field("", description="what the bot understood, in the player's words: get 3 oak logs")
    not_understood: list[str] = Field(default_factory=list, description="the words it did not understand")
    reply: str = Field("", description="what the bot said back in chat")
    goal: str | None = Field(None, description="the goal handed to the run, when it started")
    reason: str = Field("", description="why it was refused, or why reading failed")
