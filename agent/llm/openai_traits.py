"""What an OpenAI-compatible server serves, found out by asking it: completion or chat mode, and
which constraint it holds a reply to (a llama.cpp GBNF `grammar`, a `response_format` JSON
schema, or none). Each probe is one short request, answered in a fraction of a second: a
grammar or a schema that holds holds the reply to a word no model writes unprompted."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from agent.llm.base import Capabilities, LlmError
from agent.llm.http import HttpError

Mode = Literal["completion", "chat"]
Constraint = Literal["grammar", "json_schema", "none"]
# Statuses with which a server says it does not serve an endpoint or a field.
REFUSALS = frozenset({400, 404, 405, 422, 501})
PROBE_WORD = "zq7"
# POST path body -> the reply's JSON; HttpError when the server answers with an error.
Post = Callable[[str, dict[str, Any]], dict[str, Any]]


class ServerTraits(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    mode: Mode
    constraint: Constraint


def capabilities_for(traits: ServerTraits) -> Capabilities:
    held = traits.constraint != "none"
    return Capabilities(select=held, json_schema=held, regex=traits.constraint == "grammar",
                        whole_turns=traits.mode == "chat")


def probe_mode(post: Post) -> Mode:
    """Completion where the server serves /completions; chat where it refuses it."""
    try:
        post("/completions", {"prompt": "Hello", "max_tokens": 1})
    except HttpError as e:
        if e.status in REFUSALS:
            return "chat"
        raise
    return "completion"


def probe_constraint(post: Post, mode: Mode) -> Constraint:
    """The first constraint that holds a reply: a grammar (which we can write only with
    llama-cpp-python installed, grammar.py), then for chat a response_format schema."""
    probes: list[tuple[Constraint, dict[str, Any]]] = []
    if importlib.util.find_spec("llama_cpp") is not None:
        probes.append(("grammar", {"grammar": f'root ::= "{PROBE_WORD}"'}))
    if mode == "chat":
        word = {"type": "object", "properties": {"word": {"enum": [PROBE_WORD]}}, "required": ["word"],
                "additionalProperties": False}
        probes.append(("json_schema", response_format(word)))
    for constraint, fields in probes:
        body = {"max_tokens": 8, "temperature": 0.0, **fields}
        if mode == "chat":
            body["messages"] = [{"role": "user", "content": "Write one word."}]
        else:
            body["prompt"] = "Write one word:"
        try:
            reply = post("/chat/completions" if mode == "chat" else "/completions", body)
        except HttpError as e:
            if e.status in REFUSALS:
                continue
            raise
        if PROBE_WORD in reply_text(reply, mode, "probe"):
            return constraint
    return "none"


def response_format(schema: dict[str, Any]) -> dict[str, Any]:
    """The request field that holds a chat reply to `schema`, as OpenAI, vLLM and SGLang take it."""
    return {"response_format": {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}}


def first_choice(reply: Any, name: str) -> dict[str, Any]:
    choices = reply.get("choices") if isinstance(reply, dict) else None
    if not choices or not isinstance(choices[0], dict):
        raise LlmError(f"{name}: the server's reply has no choices: {json.dumps(reply)[:200]}")
    return choices[0]


def reply_text(reply: Any, mode: Mode, name: str) -> str:
    """The text of a reply's first choice: a completion's `text`, a chat's message content."""
    choice = first_choice(reply, name)
    text = choice.get("message", {}).get("content") if mode == "chat" else choice.get("text")
    return text or ""
