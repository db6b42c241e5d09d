"""TOOL_ARGS_JSON: the schema a constrained backend decodes against, and for the others, parsing
with the repairs small models need. The executor then validates the arguments against the
tool's schema, so a bad argument comes back as a `bad_args` result the model can read.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from agent.planner.domains import grounded
from agent.tools.schema import DomainValues, JsonSchema

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}
_PY_LITERAL = re.compile(r"\b(True|False|None)\b")
_STRING = re.compile(r'("(?:\\.|[^"\\])*")')
# A bounded integer with at most this many values is also given as an enum. The widest in our
# tools is a search limit of 1..100; 128 short literals keep the schema under a kilobyte.
ENUM_SPAN = 128


def decoding_schema(schema: JsonSchema | None, values: DomainValues | None = None) -> dict[str, Any] | None:
    """The tool's schema for constrained decoding, meant for any JSON-schema engine.

    A name argument with a domain takes only the `values` the world offers now; None when a
    required one has none (the tool is not callable now). Our objects reject unknown keys unless they say otherwise, while JSON Schema allows them by
    default: so say it explicitly, at every level. Bounds and lengths are kept; a number with a
    `menu` takes only its values, and a bounded integer with few values is also listed as an
    enum, which every engine holds exactly.

    Why the enum: SGLang's default grammar backend, xgrammar, supports integer minimum/maximum
    (mlc-ai/xgrammar#106, Dec 2024), number ranges (#289, Apr 2025), minLength/maxLength (#254)
    and minItems/maxItems (#296, xgrammar 0.1.19); but its range regexes were long unsound: "."
    in float bounds matched any character (#640, fixed in #642), an integer minimum of 2 let 1
    through and a number range [1, 5] let 5.7 through (#661), and a range across zero could not
    spell -0.5 (#662, #667), all reported in 2026. Other engines vary more: llama-cpp-python's
    converter ignores bounds (agent/llm/grammar.py makes up for it). The executor checks every
    value in the end.
    """
    if schema is None:
        return {"type": "object", "properties": {}, "additionalProperties": False}
    held = grounded(schema.dump(), values)  # names only from what the world offers (domains.py)
    return None if held is None else _for_decoding(held)


def _for_decoding(node: dict[str, Any]) -> dict[str, Any]:
    out = dict(node)
    if "properties" in out:
        out["properties"] = {name: _for_decoding(sub) for name, sub in out["properties"].items()}
    if "items" in out:
        out["items"] = _for_decoding(out["items"])
    if "anyOf" in out:
        out["anyOf"] = [_for_decoding(alternative) for alternative in out["anyOf"]]
    if out.get("type") == "object" or "properties" in out:
        out.setdefault("additionalProperties", False)
    if "menu" in out:  # a short menu where a model would write any number the bounds allow
        out["enum"] = out.pop("menu")
    if out.get("type") == "integer" and "enum" not in out and "minimum" in out and "maximum" in out:
        low, high = math.ceil(out["minimum"]), math.floor(out["maximum"])
        if high - low < ENUM_SPAN:
            out["enum"] = list(range(low, high + 1))
    return out


def parse_args(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """(arguments, None) or (None, why not). Tries the text as written, then repaired. Nothing
    written is no answer, not "no arguments": the model was asked because the tool takes some."""
    text = raw.strip()
    if not text:
        return None, "TOOL_ARGS_JSON is empty (write {} for no arguments)"
    for candidate in (text, repair(text)):
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value, None
        return None, f"TOOL_ARGS_JSON must be a JSON object, got {type(value).__name__}"
    return None, f"TOOL_ARGS_JSON is not JSON even after repair: {text[:80]!r}"


def repair(text: str) -> str:
    """Fixes what small models get wrong: code fences, text around the object, Python literals,
    single quotes, trailing commas, and braces left open at the end."""
    text = _FENCE.sub("", text.strip())
    start = text.find("{")
    if start < 0:
        return text
    text = _balanced(text[start:])
    if '"' not in text:
        text = text.replace("'", '"')
    return _outside_strings(text, lambda code: _TRAILING_COMMA.sub(r"\1", _PY_LITERAL.sub(_json_literal, code)))


def _json_literal(match: re.Match[str]) -> str:
    return _PY_LITERALS[match[1]]


def _outside_strings(text: str, fix: Callable[[str], str]) -> str:
    """Applies `fix` to the text between JSON strings, never inside one."""
    parts = _STRING.split(text)
    return "".join(part if i % 2 else fix(part) for i, part in enumerate(parts))


def _balanced(text: str) -> str:
    """The first complete {...} (outside strings), or the text with its open brackets closed."""
    closers: list[str] = []
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "{[":
            closers.append("}" if ch == "{" else "]")
        elif ch in "}]" and closers:
            closers.pop()
            if not closers:
                return text[: i + 1]
    return text + ('"' if in_string else "") + "".join(reversed(closers))
