"""A structure not yet placed: blocks at offsets from its lowest north-west corner (x east, y up,
z south, whole blocks), as a file or template gives them, each a block with the state asked of
it (agent/mc/blockstate.py). Placed at an anchor it is a Plan: what mc-build builds and the
`blueprint` check judges."""

from __future__ import annotations

from collections import Counter

from pydantic import Field

from agent.checks.model import Cell, Placement, Plan
from agent.mc.blockstate import BlockState
from agent.mc.geometry import Frozen

AIR = frozenset({"air", "cave_air", "void_air"})

# Blocks placed from an item of another name, or from none: a wall torch is a torch set on a
# side; a door's upper half and a bed's head come with the other half.
ITEM_OF = {"wall_torch": "torch", "redstone_wall_torch": "redstone_torch", "soul_wall_torch": "soul_torch",
           "water": "water_bucket", "lava": "lava_bucket"}
COMES_WITH_ANOTHER = (("half", "upper"), ("part", "head"))


class Structure(Frozen):
    """Blocks at offsets from the structure's corner; `air`: offsets the file says must be empty
    (within its box), which a builder clears and Mindcraft's score counts."""

    source: str = Field(description="where it came from: a file name, a template, a task")
    size: tuple[int, int, int] = Field(description="its box in blocks: x (east), y (up), z (south)")
    blocks: list[Placement] = Field(description="the cells that hold a block, at offsets from the corner")
    air: list[Cell] = Field(default=[], description="offsets that must be empty")

    def placed_at(self, anchor: Cell) -> Plan:
        """The structure with its corner at `anchor` (a world cell): what mc-build takes."""
        return Plan(anchor=anchor, blocks=self.blocks)

    def materials(self) -> dict[str, int]:
        """The bill of materials: items and how many, in the order of most needed first."""
        return materials(self.blocks)


def materials(blocks: list[Placement]) -> dict[str, int]:
    """The items that place `blocks`, and how many, most needed first: a door once for its two
    halves, a double slab as two slabs, a wall torch as a torch; an air cell (a template's inside,
    cleared) takes none."""
    need: Counter[str] = Counter()
    for p in blocks:
        state = BlockState.parse(p.block)
        if state.name in AIR or any(state.properties.get(k) == v for k, v in COMES_WITH_ANOTHER):
            continue
        count = 2 if state.properties.get("type") == "double" else 1
        need[ITEM_OF.get(state.name, state.name)] += count
    return dict(need.most_common())
