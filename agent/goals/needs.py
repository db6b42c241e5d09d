"""What a failed step lacked, as the sub-goals to reach before it: mc-craft refused a pickaxe for
want of planks, mc-collect refused stone for want of a pickaxe. A preconditions-and-effects
planner would chain these; here the world says them after the fact, in the failed report's
`missing` (a make report's ingredients, how many more of each, beside what it carried; a
collecting's cheapest tool), and the focus (agent/planner/focus.py) works on them first.

A need is bounded: at most MAX_DEPTH deep (a need of a need of a need), MAX_NEEDS in a run,
and given up after NEED_STEPS outer steps on it, so a world that cannot give the thing does not
hold the plan at it. A thing of a kind (planks, logs) is named as the member the world supports:
the one carried, seen, or made from what is carried or seen (spruce planks by a spruce tree),
not the first a recipe lists.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from agent.checks.model import HasItem
from agent.goals.names import KINDS
from agent.goals.understanding import SubGoal
from agent.mc.gamedata import item_names, recipes
from agent.mc.names import Item

MAX_DEPTH = 3
MAX_NEEDS = 8
NEED_STEPS = 3


class _Lacking(BaseModel):
    """The part of a failed report that says what it lacked: items, how many more than it
    carried (`missing` of a make or a collecting; `short` of a build, by name), and what it
    carried of them (`inventory`, when the report says; none carried otherwise)."""

    model_config = ConfigDict(extra="ignore")
    missing: list[Item] = []
    short: dict[str, int] = {}
    inventory: list[Item] = []

    @field_validator("missing", mode="before")
    @classmethod
    def _items_only(cls, value: Any) -> Any:
        # mc-build's `missing` are the cells it left, not items: what it lacked is its `short`
        return value if isinstance(value, list) and all(isinstance(v, dict) and "name" in v for v in value) else []

    def items(self) -> list[Item]:
        return self.missing + [Item(name=name, count=n) for name, n in self.short.items()]


def lacked(data: Any) -> list[Item]:
    """The items a failed step's report says the bot must carry for the step to work, as totals
    (what it carried plus what it lacked); none when the report names no item it lacked (mc-find's
    missing kinds and mc-build's unbuilt cells are not items)."""
    try:
        lacking = _Lacking.model_validate(data)
    except ValidationError:
        return []
    held = {item.name: item.count for item in lacking.inventory}
    return [Item(name=item.name, count=item.count + held.get(item.name, 0)) for item in lacking.items()]


def exactly(data: Any) -> bool:
    """Whether what a report lacked is named exactly: a build's `short` is the very block its
    cells hold (oak planks for an oak house), where a recipe's `missing` takes any member of a
    kind (planks), which `supported` names after what the world has."""
    return isinstance(data, dict) and bool(data.get("short"))


def needed(items: list[Item], tool: str, depth: int) -> list[SubGoal]:
    """The sub-goals of carrying `items`, which `tool` lacked, `depth` needs deep; used up by the
    step that needed them, so they do not last to the end."""
    return [SubGoal(says=f"get {item.count} {item.name} ({tool} needs it)",
                    check=HasItem(has_item=item), by="need", depth=depth, lasting=False) for item in items]


def supported(item: Item, carried: list[str], seen: list[str], mc_version: str | None = None) -> Item:
    """`item`, or the member of its kind (KINDS: planks, logs, wool, saplings) the world supports:
    one carried, else one seen, else one a recipe makes from what is carried or seen; else as named."""
    suffix = next((s for s in set(KINDS.values()) if item.name.endswith(s)), None)
    if suffix is None:
        return item
    members = sorted(n for n in item_names(mc_version) if n.endswith(suffix))
    around = set(carried) | set(seen)
    made = [m for m in members if any(set(way.ingredients) <= around for way in recipes(mc_version).get(m, ())
                                      if way.ingredients)]
    chosen = next(iter([m for m in carried if m in members] + [m for m in seen if m in members] + made), item.name)
    return item.model_copy(update={"name": chosen})
