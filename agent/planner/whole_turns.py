"""Turns for a chat API (Capabilities.whole_turns): each decision is one JSON reply.

A chat server answers whole assistant turns, so the planner cannot write `TOOL_NAME: ` and
let the model go on from there. Instead the turn is asked at once, as one object keyed by
the labels the line format uses (THOUGHTS, TOOL_NAME, TOOL_ARGS_JSON; DONE, NEXT_TASK).
Where the server holds replies to a JSON schema, the schema names the valid choices and, for
each tool, its arguments (one alternative per tool); elsewhere the reply is parsed, checked,
and on a miss the model is told what was wrong and asked once more. What the runtime decided
is written as the same kind of object, so the conversation reads the same throughout.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import sglang as sgl

from agent.llm import Capabilities
from agent.planner import prompts
from agent.planner.args import repair

# Room for a sentence of thoughts, a tool name, arguments and the JSON around them.
TURN_TOKENS = 320
# A thought is one short sentence. Held by the schema, not only by TURN_TOKENS: SmolLM2 facing
# the whole catalog wrote "1.1.1.…" until the token bound cut the reply off, unparseable.
THOUGHT_CHARS = 240

Fields = dict[str, Any]
# What is wrong with a reply (None: nothing), and the fields as the planner takes them.
Accept = Callable[[Fields], "tuple[Fields | None, str | None]"]


def key(label: str) -> str:
    """The JSON key for a line label: "TOOL_NAME: " → "TOOL_NAME"."""
    return label.rstrip(": ")


def write(s, fields: Fields) -> None:
    """An assistant turn the runtime decided whole: no model asked."""
    s += sgl.assistant(prompts.shown(fields))


def ask(s, name: str, schema: dict[str, Any], caps: Capabilities, accept: Accept) -> tuple[Fields | None, str | None]:
    """One decision as one reply: (the accepted fields or None, what was wrong on the way)."""
    s += sgl.assistant_begin()
    reply = _reply(s, name, schema, caps)
    fields, problem = accept(reply) if reply is not None else (None, "the reply is not a JSON object")
    s += sgl.assistant_end()
    # Under a schema, a reply that parses holds to it; one that does not was cut off (a thought
    # too long for TURN_TOKENS) or the server only tried: worth one more turn either way.
    if fields is not None or (caps.json_schema and reply is not None):
        return fields, problem
    s += sgl.user(prompts.WHOLE_CORRECTION.format(problem=problem, keys=", ".join(_keys(schema))))
    s += sgl.assistant_begin()
    retried = _reply(s, name + "_retry", schema, caps)
    fields, second = accept(retried) if retried is not None else (None, "the reply is not a JSON object")
    s += sgl.assistant_end()
    outcome = "retry accepted" if fields is not None else f"retry: {second}"
    return fields, f"{problem}; {outcome}"


def _reply(s, name: str, schema: dict[str, Any], caps: Capabilities) -> Fields | None:
    held = json.dumps(schema) if caps.json_schema else None
    s += sgl.gen(name, max_tokens=TURN_TOKENS, json_schema=held, temperature=0.0)
    for text in (s[name], repair(s[name])):
        try:
            value = json.loads(text, strict=False)  # a raw newline in a string is still the answer
        except json.JSONDecodeError:
            continue
        return value if isinstance(value, dict) else None
    return None


def _keys(schema: dict[str, Any]) -> list[str]:
    """The keys a reply may have: an object's, or those of any of its alternatives, in order."""
    keys: dict[str, None] = {}
    for alternative in schema.get("anyOf") or [schema]:
        keys.update(dict.fromkeys(alternative["properties"]))
    return list(keys)


def thought_schema() -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": THOUGHT_CHARS}


def object_schema(properties: dict[str, Any]) -> dict[str, Any]:
    """An object with exactly these properties, all required, in this order."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def choice_schema(label: str, choices: list[str]) -> dict[str, Any]:
    return object_schema({key(label): {"enum": choices}})
