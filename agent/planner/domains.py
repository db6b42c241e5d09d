"""Arguments from the world, held by the grammar: a name argument that declares its domain
(`json_schema_extra={"domain": ...}` in a tool's Args, agent/tools/schema.py's Domain) may take
only the values the world offers at this step, so no model and no random draw writes a name
the world never offered ("M-P-P-P…" for a block to pillar with).

The values are read once per step (agent/goals/grounds.py): the items carried, the placeable
blocks among them, the block kinds around the bot (nearest first), the items a recipe makes
from what is carried (and, for a tool that makes things from scratch, any item a recipe or a
furnace makes, those from what is carried first), what a furnace smelts among what is carried
(or makes of it), what burns among what is carried, the chests near, the other players online, the places the run knows (where it began, the ground beside a hole, the nearest
block of each kind seen) for a tool's x, y and z together. A tool with a required argument whose domain
is empty now is not offered for the step, nor one whose Skill.md `needs:` a domain that is empty
(mc-pillar-up with nothing to place); an optional argument with an empty domain is left out of
the schema, for the tool's own default.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import JsonValue

from agent.goals.grounds import Grounds, Point
from agent.mc.gamedata import block_names, recipes, smelting
from agent.tools.schema import Domain, DomainValues
from agent.tools.spec import ToolSpec

# A grammar of a few hundred names is fine; the nearest kinds matter, the rest are noise.
MAX_VALUES = 48
# Places are alternatives of a whole argument object each: a few, the nearest, are enough.
MAX_PLACES = 8
# Blocks nearer than this (feet to centre) are where the bot stands already, not a place to go.
AT_FEET = 2.0
# The blocks mc-chest opens (bridge/helpers/chest.js).
CHESTS = ("chest",)


def domain_values(grounds: Grounds, mc_version: str | None = None, start: Point | None = None) -> DomainValues:
    """Each domain's values in the world as `grounds` read it; `start`: where the run began."""
    carried = sorted(grounds.carried)
    blocks = block_names(mc_version)
    have = set(carried)
    craftable = sorted(item for item, ways in recipes(mc_version).items()
                       if any(way.ingredients and set(way.ingredients) <= have for way in ways))
    furnace = smelting()
    smeltable = [c for c in carried if c in furnace.recipes] + sorted({furnace.recipes[c] for c in carried
                                                                        if c in furnace.recipes})
    made = sorted(set(recipes(mc_version)) | set(furnace.recipes.values()))
    return {"carried": carried, "placeable": [c for c in carried if c in blocks],
            "block_seen": grounds.kinds[:MAX_VALUES], "craftable": craftable[:MAX_VALUES],
            "obtainable": list(dict.fromkeys([*craftable, *made])), "smeltable": smeltable,
            "fuel": [c for c in carried if furnace.fuel(c)], "chest_seen": [k for k in grounds.kinds if k in CHESTS],
            "player": list(grounds.players), "place": places(grounds, start)}


def places(grounds: Grounds, start: Point | None) -> list[JsonValue]:
    """The places the run knows, as points to go to: where it began, the ground beside the hole
    the bot is in, and the nearest block of each kind seen (past the ones at its feet), nearest
    first; at most MAX_PLACES."""
    seen = [b.at for b in grounds.blocks if b.at is not None and b.distance > AT_FEET]
    found = [p for p in (start, grounds.beside_hole(), *seen) if p is not None]
    return [p.model_dump() for p in list(dict.fromkeys(found))[:MAX_PLACES]]


def grounded(schema: dict[str, Any], values: DomainValues | None) -> dict[str, Any] | None:
    """The decoding schema with each domain's values as its enum, at any depth (a list's items,
    an object in a list), for `place` one alternative of the whole object per place, its x,
    y and z fixed, and for a schema with `forms` one alternative per form the world can fill;
    None when a required argument's domain is empty (the tool cannot be called with anything
    the world offers). Without `values` (no world), the schema with no domain said."""
    if "forms" in schema:
        filled = [grounded(_in_form(schema, form), values) for form in schema["forms"]]
        alternatives = [alt for held in filled if held is not None for alt in held.get("anyOf", [held])]
        return {"anyOf": alternatives} if alternatives else None
    held = _held(schema, values)
    at = [name for name, node in schema.get("properties", {}).items() if node.get("domain") == "place"]
    if held is None or not at or values is None:
        return held
    return _at_places(held, at, values.get("place", []))


def _in_form(schema: dict[str, Any], form: dict[str, Any]) -> dict[str, Any]:
    """`schema` as one of its forms calls it (agent/tools/schema.py's Form)."""
    absent, fixed = set(form.get("absent", [])), form.get("fixed", {})
    properties = {name: {**node, **fixed.get(name, {})} for name, node in schema["properties"].items()
                  if name not in absent}
    required = list(dict.fromkeys([*schema.get("required", []), *form.get("required", [])]))
    rest = {k: v for k, v in schema.items() if k != "forms"}
    return {**rest, "properties": properties, "required": required}


def _held(node: dict[str, Any], values: DomainValues | None) -> dict[str, Any] | None:
    """`node` with its domains made enums; None when nothing the world offers fits it."""
    domain = _domain_of(node, values)
    node = {k: v for k, v in node.items() if k != "domain"}
    if domain is not None:
        offered = values.get(domain, []) if values is not None else []
        return {**node, "enum": offered} if offered else None
    if "items" in node:
        items = _held(node["items"], values)
        if items is None:  # nothing to list: only the empty list
            bare = {k: v for k, v in node["items"].items() if k != "domain"}
            return None if node.get("minItems", 0) > 0 else {**node, "items": bare, "maxItems": 0}
        node["items"] = items
    if "properties" in node:
        properties, required = {}, list(node.get("required", []))
        for name, sub in node["properties"].items():
            kept = _held(sub, values)
            if kept is None and name in required:
                return None
            if kept is not None:
                properties[name] = kept
        node["properties"], node["required"] = properties, required
    return node


def _domain_of(node: dict[str, Any], values: DomainValues | None) -> Domain | None:
    """The domain a name node takes its enum from now: None without a world, or for `place`
    (a whole object's alternatives, not one name's)."""
    return None if values is None or node.get("domain") in (None, "place") else node["domain"]


def _at_places(schema: dict[str, Any], at: list[str], points: list[JsonValue]) -> dict[str, Any] | None:
    """`schema` once per place, its `at` arguments (x, y, z) fixed to the place's, and where
    they are optional, once without them (never a part of a point: mc-look given y and z alone
    is refused); with no place, None if they are required, else the schema without them."""
    optional = not set(at) & set(schema["required"])
    bare = {**schema, "properties": {k: v for k, v in schema["properties"].items() if k not in at}}
    if not points:
        return bare if optional else None
    def fixed(point: Any) -> dict[str, Any]:
        props = {name: {**node, "enum": [_as(node, point[name])]} if name in at else node
                 for name, node in schema["properties"].items()}
        return {**schema, "properties": props, "required": list(dict.fromkeys([*schema["required"], *at]))}
    return {"anyOf": [fixed(point) for point in points] + ([bare] if optional else [])}


def _as(node: dict[str, Any], coordinate: float) -> float | int:
    """A place's coordinate as the node takes it: a block's (whole) for an integer."""
    return math.floor(coordinate) if node.get("type") == "integer" else coordinate


def callable_now(spec: ToolSpec, values: DomainValues | None, args_given: bool = False) -> bool:
    """Whether the world offers what the tool needs (nothing `lacking`), and, unless the goal
    check gives the arguments, some form of them the grammar can write."""
    if lacking(spec, values, args_given):
        return False
    hint = spec.schema_hint
    return args_given or values is None or hint is None or grounded(hint.dump(), values) is not None


def lacking(spec: ToolSpec, values: DomainValues | None, args_given: bool = False) -> list[Domain]:
    """The domains the tool needs that the world leaves empty now: those its Skill.md's `needs:`
    names and, unless the goal check gives its arguments (`args_given`), those of its required
    arguments; none without a world."""
    if values is None:
        return []
    schema = spec.schema_hint
    required = [node.domain for name, node in (schema.properties.items() if schema else [])
                if node.domain is not None and name in schema.required and not args_given]
    return [domain for domain in dict.fromkeys([*spec.needs, *required]) if not values.get(domain)]
