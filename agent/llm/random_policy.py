"""`random[:SEED]`: the baseline every model should beat. It chooses uniformly among the offered
choices (tool names, yes/no, NEXT_TASK labels) and writes arguments sampled inside the tool's
JSON schema, so every step is valid and none is informed.

It is the scripted backend with a policy for a script: the same stop strings, recorded calls and
usage figures (tokens estimated at 4 characters each). The same seed gives the same run.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from agent.llm.scripted import ScriptedBackend, ScriptedCall

# Free text (thoughts, next tasks, llm tool replies): a few fixed phrases, so prompts stay short.
PHRASES = ("look around", "try something else", "keep going", "check the result")
# Strings the schema leaves open: short words, most of them meaningless to the tools.
WORDS = ("north", "stone", "Note_1", "Collection_1", "$found", "data.name", "42", "yes")
# Numbers the schema leaves unbounded on a side are drawn this far from the other bound (or from 0).
SPAN = 8
# Lists are this long at most (or their minItems): a schema may allow hundreds (mc-collect avoid: 512).
MAX_ITEMS = 2


class RandomBackend(ScriptedBackend):
    """Uniform `select`, schema-valid random JSON for `gen` with a schema, a phrase otherwise."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._random = random.Random(seed)
        super().__init__(self._reply, name=f"random:{seed}")
        # Its free text is a phrase drawn at random: nothing to ask for (Capabilities.thoughts). A
        # baseline: its choices are uniform, never weighed against the runtime's prior.
        self.capabilities = self.capabilities.model_copy(update={"thoughts": False, "baseline": True})

    def _reply(self, call: ScriptedCall) -> str:
        if call.kind == "select":
            return self._random.choice(call.choices)
        if call.json_schema:
            return json.dumps(sample(json.loads(call.json_schema), self._random))
        return self._random.choice(PHRASES)


def sample(schema: dict[str, Any], rng: random.Random) -> Any:
    """A value inside `schema`: the JSON-schema subset of agent.tools.schema, plus anyOf/oneOf.
    An untyped node (any value) gets {}."""
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        return sample(rng.choice(branches), rng)
    if schema.get("enum"):
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rng.choice(kind) if kind else None
    if kind == "object" or (kind is None and "properties" in schema):
        return _object(schema, rng)
    if kind == "array":
        low = schema.get("minItems", 0)
        count = rng.randint(low, max(low, min(schema.get("maxItems", MAX_ITEMS), MAX_ITEMS)))
        return [sample(schema.get("items", {}), rng) for _ in range(count)]
    if kind in ("integer", "number"):
        return _number(schema, rng, integer=kind == "integer")
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        return _string(schema, rng)
    if kind == "null":
        return None
    return {}


def _object(schema: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Every required property, and each optional one half the time; never a property not listed."""
    required = set(schema.get("required", []))
    return {name: sample(sub, rng) for name, sub in schema.get("properties", {}).items()
            if name in required or rng.random() < 0.5}


def _string(schema: dict[str, Any], rng: random.Random) -> str:
    """One of WORDS that fits minLength/maxLength, else as many x's as the minimum asks."""
    low, high = schema.get("minLength", 0), schema.get("maxLength", math.inf)
    fitting = [word for word in WORDS if low <= len(word) <= high]
    return rng.choice(fitting) if fitting else "x" * low


def _number(schema: dict[str, Any], rng: random.Random, *, integer: bool) -> int | float:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is None:
        low = -SPAN if high is None else high - 2 * SPAN
    if high is None:
        high = low + 2 * SPAN
    if integer:
        return rng.randint(math.ceil(low), math.floor(high))
    # Two decimals read like a model's numbers; clamped, as rounding may cross a bound.
    return min(max(round(rng.uniform(low, high), 2), low), high)
