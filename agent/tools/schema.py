"""Tool argument schemas: the JSON-schema subset we support, typed slots, and checking args.

Supported keywords: type (one or a list), description, title, properties, required,
additionalProperties, items, enum, minimum, maximum, minLength, maxLength, minItems, maxItems,
default, domain (where a name comes from at each step: agent/planner/domains.py) and menu (the
few values a planner's decoding offers for a number, agent/planner/args.py). Any other keyword
is a load error, so a constraint is never silently ignored. Unlike
full JSON Schema, an object rejects properties it does not list unless it says
`additionalProperties: true`: an unknown argument is almost always a planner mistake worth a
clear failure. A value out of its limits is refused with the limits in the reason, in one line:
"argument 'radius': expected an integer from 1 to 16, got 1000".
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

# Where a name argument's values come from, read from the world at each step: an item carried, a
# placeable block carried, a block kind seen near the bot, an item a recipe makes from what is
# carried, any item a recipe or a furnace makes (made from scratch), an item carried that a
# furnace smelts or what it makes of one, an item carried that burns, a chest seen near the bot,
# another player online.
# A place the run knows (its start, a block kind's nearest, a player, the ground beside a hole)
# is the domain of a tool's x, y and z together.
Domain = Literal["carried", "placeable", "block_seen", "craftable", "obtainable", "smeltable", "fuel", "chest_seen",
                 "player", "place"]
# What each domain offers at a step: names, or for `place`, points {"x", "y", "z"} (world blocks).
DomainValues = dict[Domain, list[JsonValue]]
SchemaType = Literal["object", "string", "integer", "number", "boolean", "array", "null"]

# Action keys the executor keeps for itself, so no tool may take them as arguments.
RESERVED_ARGS = ("type", "as", "executor")

_A = {
    "object": "an object",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "null": "null",
}


class Form(BaseModel):
    """One way to call a tool whose arguments come in forms (mc-move: blocks, or a key held for a
    duration; mc-find: blocks, items or players): what it requires, the schema keywords it lays
    over a property's own ({"enum": [true]}, {"domain": "carried"}) and the properties it leaves
    out. The planner's grammar is one alternative per form (agent/planner/domains.py), so no draw
    writes a mix the tool's arguments model refuses; that model still checks every call."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    required: list[str] = []
    fixed: dict[str, dict[str, JsonValue]] = {}
    absent: list[str] = []


class JsonSchema(BaseModel):
    """One node of a JSON schema, restricted to the keywords listed in this module's docstring."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    type: SchemaType | list[SchemaType] | None = None
    title: str = ""
    description: str = ""
    properties: dict[str, JsonSchema] = {}
    required: list[str] = []
    additional_properties: bool = Field(False, alias="additionalProperties")
    items: JsonSchema | None = None
    enum: list[JsonValue] | None = None
    # int | float keeps a bound of 1 as 1 in the dumped schema (and in messages), not 1.0.
    minimum: int | float | None = None
    maximum: int | float | None = None
    min_length: int | None = Field(None, alias="minLength", ge=0)
    max_length: int | None = Field(None, alias="maxLength", ge=0)
    min_items: int | None = Field(None, alias="minItems", ge=0)
    max_items: int | None = Field(None, alias="maxItems", ge=0)
    default: JsonValue = None
    domain: Domain | None = Field(None, description="where a name's values come from at each step (agent/planner/"
                                                    "domains.py): the grammar allows only those the world offers")
    forms: list[Form] | None = Field(None, min_length=1, description="an object's ways to be called (Form)")
    menu: list[int | float] | None = Field(None, min_length=1, description=(
        "the values a planner's decoding offers for a number (a short menu: a search radius of 8, 16 or 32, not "
        "1); any value within the bounds is still accepted from a protocol or a user"))

    @model_validator(mode="after")
    def _required_are_properties(self) -> JsonSchema:
        missing = [name for name in self.required if name not in self.properties]
        if missing:
            raise ValueError(f"required names {missing} that are not in properties")
        return self

    @model_validator(mode="after")
    def _forms_name_properties(self) -> JsonSchema:
        named = {n for f in self.forms or [] for n in (*f.required, *f.fixed, *f.absent)}
        if named - set(self.properties):
            raise ValueError(f"forms name {sorted(named - set(self.properties))}, which are not in properties")
        return self

    @model_validator(mode="after")
    def _ranges_are_not_empty(self) -> JsonSchema:
        """A range nothing fits would make every call a bad_args, and a decoding grammar impossible."""
        for low, high, names in ((self.minimum, self.maximum, "minimum/maximum"),
                                 (self.min_length, self.max_length, "minLength/maxLength"),
                                 (self.min_items, self.max_items, "minItems/maxItems")):
            if low is not None and high is not None and low > high:
                raise ValueError(f"{names} {low} > {high}: nothing fits")
        if self.types() == ["integer"] and self.minimum is not None and self.maximum is not None \
                and math.ceil(self.minimum) > math.floor(self.maximum):
            raise ValueError(f"no integer from {self.minimum} to {self.maximum}")
        return self

    @model_validator(mode="after")
    def _menu_within_bounds(self) -> JsonSchema:
        outside = [v for v in self.menu or [] if (self.minimum is not None and v < self.minimum)
                   or (self.maximum is not None and v > self.maximum)]
        if outside:
            raise ValueError(f"menu values {outside} outside {self.minimum}..{self.maximum}")
        return self

    def types(self) -> list[str]:
        if self.type is None:
            return []
        return [self.type] if isinstance(self.type, str) else list(self.type)

    def dump(self) -> dict[str, Any]:
        """The schema as JSON, without the keywords left at their defaults."""
        return self.model_dump(mode="json", by_alias=True, exclude_defaults=True)


SlotType = Literal[
    "str", "string", "int", "integer", "float", "number", "bool", "boolean", "list", "array", "dict", "object", "any"
]
_SLOT_TYPES: dict[str, SchemaType | None] = {
    "str": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "list": "array",
    "dict": "object",
    "any": None,
}


# An argument's (or an output's) name: a Python identifier, so a decorated function can take it.
ARG_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"


class Slot(BaseModel):
    """A typed argument, as the register-tool seed's slots are: the one model behind a Skill.md's
    `slots:` key and @register_tool's slots.

    A `required` slot with no value does not call the tool: the result is failed, code
    needs_input, with `prompt` as the reason (what to ask for). `enum` lists the values accepted,
    and is offered to constrained decoding. `verified: false` marks a value that must be confirmed
    before the call: seen in an earlier result this run (the world said it) or in the goal (the
    user said it); else the call fails with needs_input (agent/tools/slots.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=ARG_NAME)
    type: SlotType
    description: str = ""
    prompt: str = Field("", description="what to ask for when a required value is missing")
    required: bool = False
    verified: bool = Field(True, description="false: a value must be confirmed by the world or the user first")
    enum: list[JsonValue] | None = Field(None, min_length=1)


class Output(BaseModel):
    """What a tool returns, as the seed's outputs: a slot without prompt or required."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=ARG_NAME)
    type: SlotType
    description: str = ""


def slots_schema(slots: list[Slot]) -> JsonSchema:
    """The object schema equivalent to a list of slots."""
    names = [slot.name for slot in slots]
    doubled = sorted({name for name in names if names.count(name) > 1})
    if doubled:
        raise ValueError(f"slot names must be unique; repeated: {', '.join(doubled)}")
    properties = {
        slot.name: JsonSchema(type=_SLOT_TYPES.get(slot.type, slot.type), description=slot.description, enum=slot.enum)
        for slot in slots
    }
    return JsonSchema(type="object", properties=properties, required=[s.name for s in slots if s.required])


def check_args(schema: JsonSchema | None, args: dict[str, Any]) -> str | None:
    """None if `args` fit `schema`, else a reason naming the argument and what it accepts.
    NaN and infinities are refused whatever the schema: JSON parsers take them (Python's
    json.loads reads NaN and Infinity), and no tool has a use for one."""
    unfinite = _first_unfinite(args, "")
    if unfinite is not None:
        return f"argument {unfinite[0]!r}: expected a finite number, got {unfinite[1]!r}"  # repr: one line, whatever the key
    if schema is None:
        return None if not args else f"unknown argument {sorted(args)[0]!r}: this tool takes no arguments"
    return _check_object(schema, args, prefix="")


def _first_unfinite(value: Any, where: str) -> tuple[str, float] | None:
    """(path, value) of the first NaN or infinity anywhere in `value`, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _first_unfinite(item, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None


def _check_object(schema: JsonSchema, value: dict[str, Any], prefix: str) -> str | None:
    if not schema.additional_properties:
        unknown = [key for key in value if key not in schema.properties]
        if unknown:
            accepted = ", ".join(schema.properties) or "none"
            return f"unknown argument '{prefix}{unknown[0]}' (accepted: {accepted})"
    for name in schema.required:
        if name not in value:
            return f"missing required argument '{prefix}{name}'{_about(schema.properties[name])}"
    for name, item in value.items():
        if name in schema.properties:
            reason = _check(schema.properties[name], item, f"{prefix}{name}")
            if reason:
                return reason
    return None


def _check(schema: JsonSchema, value: Any, where: str) -> str | None:
    types = schema.types()
    if types and not any(_is(t, value) for t in types):
        return _expected(where, " or ".join(_described(schema, t) for t in types), value, schema)
    if schema.enum is not None and value not in schema.enum:
        return _expected(where, f"one of {', '.join(json.dumps(e) for e in schema.enum)}", value, schema)
    kind = _outside_limits(schema, value)
    if kind:
        return _expected(where, _described(schema, kind), value, schema)
    if isinstance(value, list) and schema.items is not None:
        for i, item in enumerate(value):
            reason = _check(schema.items, item, f"{where}[{i}]")
            if reason:
                return reason
    if isinstance(value, dict) and schema.properties:
        return _check_object(schema, value, prefix=f"{where}.")
    return None


def _is(kind: str, value: Any) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    python = {"object": dict, "string": str, "boolean": bool, "array": list, "null": type(None)}[kind]
    return isinstance(value, python)


def _limits(schema: JsonSchema, kind: str) -> tuple[float | None, float | None]:
    """The bounds the schema puts on a value of this kind: its size for numbers, else its length."""
    if kind in ("integer", "number"):
        return schema.minimum, schema.maximum
    if kind == "string":
        return schema.min_length, schema.max_length
    if kind == "array":
        return schema.min_items, schema.max_items
    return None, None


def _outside_limits(schema: JsonSchema, value: Any) -> str | None:
    """The kind to name in the message if `value` breaks the schema's range or lengths, else None."""
    if _is("number", value):
        kind, size = ("integer" if "integer" in schema.types() and _is("integer", value) else "number"), value
    elif isinstance(value, (str, list)):
        kind, size = ("string" if isinstance(value, str) else "array"), len(value)
    else:
        return None
    low, high = _limits(schema, kind)
    return kind if (low is not None and size < low) or (high is not None and size > high) else None


def _described(schema: JsonSchema, kind: str) -> str:
    """What the schema accepts of one kind, limits included: "an integer from 1 to 16"."""
    low, high = _limits(schema, kind)
    unit = {"string": " characters", "array": " items"}.get(kind, "")
    if low is not None and high is not None:
        span = f"of {low} to {high}{unit}" if unit else f"from {_shown_bound(low)} to {_shown_bound(high)}"
    elif low is not None:
        span = f"of at least {_shown_bound(low)}{unit}"
    elif high is not None:
        span = f"of at most {_shown_bound(high)}{unit}"
    else:
        return _A[kind]
    return f"{_A[kind]} {span}"


def _shown_bound(bound: float) -> str:
    """1.0 as 1, 0.05 as 0.05: bounds as the tool's author wrote them."""
    return str(int(bound)) if float(bound).is_integer() else repr(bound)


def _expected(where: str, accepted: str, value: Any, schema: JsonSchema) -> str:
    shown = json.dumps(value, default=str)
    if len(shown) > 40:
        shown = shown[:40] + "…"
    return f"argument '{where}': expected {accepted}, got {shown}{_about(schema)}"


def _about(schema: JsonSchema) -> str:
    return f" ({schema.description})" if schema.description else ""


def compact(schema: JsonSchema | None) -> str:
    """The schema in one short line for the catalog, e.g. {target: string, limit?: integer 1..100}."""
    if schema is None or not schema.properties:
        return "{}"
    parts = []
    for name, prop in schema.properties.items():
        mark = "" if name in schema.required else "?"
        parts.append(f"{name}{mark}: {_compact_type(prop)}")
    return "{" + ", ".join(parts) + "}"


def _compact_type(schema: JsonSchema) -> str:
    if schema.enum is not None:
        return "|".join(json.dumps(e) for e in schema.enum)
    if schema.types() == ["array"] and schema.items is not None:
        return f"list of {_compact_type(schema.items)}"
    if schema.types() == ["object"] and schema.properties:
        return compact(schema)
    return ("|".join(schema.types()) or "any") + _compact_range(schema)


def _compact_range(schema: JsonSchema) -> str:
    """A number's bounds as the catalog shows them: " 1..16", " >=1", " <=16", or nothing."""
    low, high = schema.minimum, schema.maximum
    if low is not None and high is not None:
        return f" {_shown_bound(low)}..{_shown_bound(high)}"
    if low is not None or high is not None:
        return f" >={_shown_bound(low)}" if low is not None else f" <={_shown_bound(high)}"
    return ""
