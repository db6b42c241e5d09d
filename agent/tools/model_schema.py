"""A python tool's argument schema, made from its arguments model: the one place its bounds live.

A tool.py that defines `Args` (a pydantic model) states its arguments there, with their bounds,
defaults and descriptions; the loader turns it into the JSON schema the planner reads and the
executor checks (agent/tools/schema.py's subset). Pydantic writes some things the subset has no
keyword for; they are turned into what it has, never into something stricter:
- an optional argument (`int | None = None`) is the argument's own type: null is not offered;
- a fixed-length tuple (a cell [x, y, z]) is a list of that length whose items take the widest
  of the tuple's bounds;
- a nested model ($ref) is written out in place;
- a list or a dict of any JSON value is the type alone: `additionalProperties: true` for a dict;
- `pattern` and `title` are left out;
- required arguments come first, in the order the model lists them: what the planner must fill leads.
What the schema cannot say, the model still checks when the tool runs (world/toolkit.py's run_tool).

A field may also say what to ask for when it is missing and that its value must be confirmed
first, as a Skill.md's slots do: `Field(json_schema_extra={"prompt": "...", "verified": False})`;
then the tool's slots are made from the model too (agent/tools/slots.py reads them). A model
whose arguments come in forms says so in its config, `json_schema_extra={"forms": [...]}`
(agent/tools/schema.py's Form).
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from agent.tools.schema import JsonSchema, Slot

# Keywords pydantic writes that the subset leaves out: a title is noise in the catalog, and a
# string's pattern stays with the model (the executor's check takes any string of the type).
_DROPPED = {"title", "pattern"}
# What a field's json_schema_extra may add: a slot's prompt and verified (agent/tools/schema.py's Slot).
SLOT_KEYS = ("prompt", "verified")
_BOUNDS = ("minimum", "maximum")


class ArgsModel(BaseModel):
    """A tool's arguments, the one source of its schema: a primitive's, a world tool's, a skill's.
    Unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelSchemaError(ValueError):
    """An arguments model that uses a part of JSON schema the tool schemas cannot express."""


def model_schema(model: type[BaseModel]) -> JsonSchema:
    """The object schema of `model`'s fields, in agent/tools/schema.py's subset."""
    whole = model.model_json_schema()
    defs, required = whole.get("$defs", {}), whole.get("required", [])
    properties = {}
    for name in sorted(whole.get("properties", {}), key=lambda n: n not in required):
        try:
            properties[name] = JsonSchema.model_validate(_plain(whole["properties"][name], defs))
        except ValidationError as e:
            raise ModelSchemaError(f"{model.__name__}.{name}: {_first(e)}") from None
        except ModelSchemaError as e:
            raise ModelSchemaError(f"{model.__name__}.{name}: {e}") from None
    return JsonSchema(type="object", properties=properties, required=required, forms=whole.get("forms"))


def model_slots(model: type[BaseModel], schema: JsonSchema) -> list[Slot] | None:
    """The arguments as slots, when a field of `model` says what to ask for or to confirm; else None."""
    extras = {name: field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
              for name, field in model.model_fields.items()}
    if not any(key in extra for extra in extras.values() for key in SLOT_KEYS):
        return None
    return [Slot(name=name, type=prop.type if isinstance(prop.type, str) else "any", description=prop.description,
                 required=name in schema.required, enum=prop.enum,
                 **{key: extras[name][key] for key in SLOT_KEYS if key in extras[name]})
            for name, prop in schema.properties.items()]


def _plain(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """One node with refs written out, optional types unwrapped and tuples made lists."""
    if "anyOf" in node:  # first: an optional model is a ref or None
        node = _without_null(node)
    if "$ref" in node:
        node = {**defs[node["$ref"].rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
    if "prefixItems" in node:
        node = _as_list(node)
    plain = {key: value for key, value in node.items() if key not in (*_DROPPED, *SLOT_KEYS, "$defs")}
    if plain.get("default", 0) is None:
        del plain["default"]
    if "properties" in plain:
        plain["properties"] = {name: _plain(prop, defs) for name, prop in plain["properties"].items()}
    if "items" in plain:
        plain["items"] = _plain(plain["items"], defs)
        if not plain["items"]:
            del plain["items"]
    if plain.get("additionalProperties") is not None and not isinstance(plain["additionalProperties"], bool):
        if _plain(plain["additionalProperties"], defs):
            raise ModelSchemaError("a dict's values must be any JSON value (the schemas cannot bound them)")
        plain["additionalProperties"] = True
    return plain


def _first(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    if first["type"] == "extra_forbidden":
        return f"JSON schema keyword {where!r} is not one the tool schemas take (agent/tools/schema.py)"
    return f"{where}: {first['msg']}" if where else first["msg"]


def _without_null(node: dict[str, Any]) -> dict[str, Any]:
    options = [option for option in node["anyOf"] if option != {"type": "null"}]
    if len(options) != 1:
        raise ModelSchemaError(f"an argument may take one type (or that type or None); got {node['anyOf']}")
    rest = {key: value for key, value in node.items() if key != "anyOf"}
    return {**options[0], **rest}


def _as_list(node: dict[str, Any]) -> dict[str, Any]:
    items = node["prefixItems"]
    kinds = {item.get("type") for item in items}
    if len(kinds) != 1:
        raise ModelSchemaError(f"a tuple's items must share one type; got {sorted(map(str, kinds))}")
    item: dict[str, Any] = {"type": kinds.pop()}
    for bound, widest in zip(_BOUNDS, (min, max), strict=True):
        if all(bound in i for i in items):
            item[bound] = widest(i[bound] for i in items)
    rest = {key: value for key, value in node.items() if key != "prefixItems"}
    return {**rest, "items": item}
