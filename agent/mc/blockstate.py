"""A block with its state, as the game writes it: `oak_stairs[facing=east,half=bottom]`.

Blueprints (schematic files, Mindcraft's construction JSON, templates) and the blueprint check
name a cell's block so; a bare name (`stone`) asks for the block in any state. A placer decides
only some properties: CHOSEN, by the face clicked and the way it looks (facing, half, axis,
hinge, a slab's type), or by a use after placing (open). The game derives the rest from the
neighbours (a fence's or pane's connections, a stair's shape, waterlogged, a leaf's distance),
so a check compares the chosen ones only, and the builder is asked to set only those.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Annotated

from pydantic import AfterValidator

from agent.mc.geometry import Frozen
from agent.paths import BRIDGE_DIR

# The properties a player sets by how a block is placed (or opened after), not by its neighbours;
# one list, read by the bridge's blockstate.js too.
CHOSEN: tuple[str, ...] = tuple(json.loads((BRIDGE_DIR / "helpers" / "chosen-properties.json").read_text()))

_SPEC = re.compile(r"^(?:minecraft:)?([a-z0-9_]+)(?:\[([a-z0-9_]+=[a-z0-9_]+(?:,[a-z0-9_]+=[a-z0-9_]+)*)?\])?$")


class BlockState(Frozen):
    """A block name and the properties asked of it (all as the game spells them, strings)."""

    name: str
    properties: dict[str, str] = {}

    @classmethod
    def parse(cls, spec: str) -> BlockState:
        """`oak_stairs[facing=east]`, `minecraft:stone` or `stone`; ValueError naming the form."""
        m = _SPEC.match(spec.strip())
        if not m:
            raise ValueError(f"{spec!r} is not a block: write a name, or name[property=value,...]")
        pairs = [p.split("=", 1) for p in m.group(2).split(",")] if m.group(2) else []
        return cls(name=m.group(1), properties=dict(sorted(pairs)))

    def chosen(self) -> dict[str, str]:
        """The properties a placer decides (CHOSEN), the ones a check compares."""
        return {k: v for k, v in self.properties.items() if k in CHOSEN}

    def spec(self) -> str:
        """The game's notation, properties sorted: `oak_stairs[facing=east,half=bottom]`."""
        props = ",".join(f"{k}={v}" for k, v in sorted(self.properties.items()))
        return f"{self.name}[{props}]" if props else self.name

    def as_placed(self) -> BlockState:
        """This block with only its chosen properties: what a builder sets and a check compares."""
        return BlockState(name=self.name, properties=self.chosen())


# A blueprint names few distinct states over many cells: each is parsed once.
@lru_cache(maxsize=4096)
def _normal_spec(spec: str) -> str:
    return BlockState.parse(spec).spec()


# A block, with or without its state, as a string: a blueprint's cell, a check's cell.
BlockSpec = Annotated[str, AfterValidator(_normal_spec)]
