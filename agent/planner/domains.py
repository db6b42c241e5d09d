"""Arguments from the world, held by the grammar: a name argument that declares its domain
(`json_schema_extra={"domain": ...}` in a tool's Args, agent/tools/schema.py's Domain) may take
only the values the world offers at this step, so no model and no random draw writes a name
the world never offered ("M-P-P-P…" for a block to pillar with).

The values are read once per step (agent/goals/grounds.py): the items carried, the placeable
blocks among them, the block kinds around the bot (nearest first), the items a recipe makes
from what is carried, what a furnace smelts among what is carried (or makes of it), the other
players online. A tool with a required argument whose domain
is empty now is not offered for the step, nor one whose Skill.md `needs:` a domain that is empty
(mc-pillar-up with nothing to place); an optional argument with an empty domain is left out of
the schema, for the tool's own default.
"""

from __future__ import annotations

from typing import Any

from agent.goals.grounds import Grounds
from agent.tools.schema import Domain
from agent.tools.spec import ToolSpec
from agent.world.gamedata import block_names, recipes, smelting

# A grammar of a few hundred names is fine; the nearest kinds matter, the rest are noise.
MAX_VALUES = 48


def domain_values(grounds: Grounds, mc_version: str | None = None) -> dict[Domain, list[str]]:
    """Each domain's values in the world as `grounds` read it."""
    carried = sorted(grounds.carried)
    blocks = block_names(mc_version)
    have = set(carried)
    craftable = sorted(item for item, ways in recipes(mc_version).items()
                       if any(way.ingredients and set(way.ingredients) <= have for way in ways))
    furnace = smelting().recipes
    smeltable = [c for c in carried if c in furnace] + sorted({furnace[c] for c in carried if c in furnace})
    return {"carried": carried, "placeable": [c for c in carried if c in blocks],
            "block_seen": grounds.kinds[:MAX_VALUES], "craftable": craftable[:MAX_VALUES],
            "smeltable": smeltable, "player": list(grounds.players)}


def grounded(schema: dict[str, Any], values: dict[Domain, list[str]] | None) -> dict[str, Any] | None:
    """The decoding schema with each domain's values as its enum; None when a required argument's
    domain is empty (the tool cannot be called with anything the world offers). Without
    `values` (no world), the schema with no domain said."""
    properties, required = dict(schema.get("properties", {})), list(schema.get("required", []))
    for name, node in schema.get("properties", {}).items():
        domain = node.get("domain")
        if domain is None:
            continue
        if values is None:  # no world to read: the name is the model's, checked when the tool runs
            properties[name] = {k: v for k, v in node.items() if k != "domain"}
            continue
        offered = values.get(domain, [])
        if offered:
            properties[name] = {**{k: v for k, v in node.items() if k != "domain"}, "enum": offered}
        elif name in required:
            return None
        else:
            del properties[name]
    return {**schema, "properties": properties, "required": required}


def callable_now(spec: ToolSpec, values: dict[Domain, list[str]] | None) -> bool:
    """Whether the world offers what the tool needs: something in each domain its Skill.md's
    `needs:` names and in each domain of a required argument."""
    if values is None:
        return True
    schema = spec.schema_hint
    required = [node.domain for name, node in (schema.properties.items() if schema else [])
                if node.domain is not None and name in schema.required]
    return all(values.get(domain) for domain in [*spec.needs, *required])
