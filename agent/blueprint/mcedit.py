"""MCEdit / Schematica schematics (.schematic, Minecraft before 1.13): a numeric block id and a
4-bit data value per cell, y then z then x. minecraft-data's legacy table names each pair as
the flattened game does (`53:4` is `oak_stairs[facing=east,half=top,...]`).

A door keeps half its state in each block (the lower its facing and open, the upper its hinge),
so each half is completed from the other, as the game did when it drew them.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np

from agent.blueprint.errors import BlueprintError
from agent.blueprint.grid import Region
from agent.mc.blockstate import BlockState
from agent.mc.gamedata import MINECRAFT_DATA

LEGACY_TABLE = MINECRAFT_DATA / "pc" / "common" / "legacy.json"
# The one flattened name the legacy table gives in 1.13's sense where 1.14 reused it for another
# block: its stone slab is the smooth one.
LEGACY_RENAMED = {"minecraft:stone_slab": "minecraft:smooth_stone_slab"}
# The properties a door's upper half holds for both (the lower holds the rest: facing, open).
DOOR_UPPER_HOLDS = ("hinge", "powered")


@cache
def legacy_names() -> dict[str, str]:
    """`id:data` to the flattened block state, from minecraft-data."""
    return json.loads(LEGACY_TABLE.read_text(encoding="utf-8"))["blocks"]


def is_mcedit(root: dict[str, Any]) -> bool:
    return "Blocks" in root and "Data" in root and "Materials" in root


def mcedit_regions(root: dict[str, Any]) -> list[Region]:
    """The one box of an MCEdit schematic, its ids and data named."""
    if root["Materials"] != "Alpha":
        raise BlueprintError(f"is an MCEdit schematic of {root['Materials']!r} blocks: only 'Alpha' is read")
    if "AddBlocks" in root:
        raise BlueprintError("uses block ids above 255 (AddBlocks), which are mods' blocks: not read")
    try:
        size = tuple(int(root[k]) for k in ("Width", "Height", "Length"))
    except KeyError as e:
        raise BlueprintError(f"is an MCEdit schematic without its {e.args[0]} field") from None
    ids = root["Blocks"].astype(np.uint8).astype(np.int64)
    data = root["Data"].astype(np.uint8).astype(np.int64) & 0x0F
    if ids.size != data.size:
        raise BlueprintError(f"has {ids.size} block ids but {data.size} data values")
    codes, cells = np.unique(ids * 16 + data, return_inverse=True)
    states = [_legacy_state(int(code) // 16, int(code) % 16) for code in codes]
    specs = np.array([s.spec() for s in states], dtype=object)[cells]
    _complete_doors(specs, states, cells, size)
    palette, cells = np.unique(specs, return_inverse=True)
    return [Region(corner=(0, 0, 0), size=size, palette=[str(p) for p in palette], cells=cells.reshape(-1))]


def _legacy_state(block_id: int, data: int) -> BlockState:
    names = legacy_names()
    name = names.get(f"{block_id}:{data}") or names.get(f"{block_id}:0")
    if name is None:
        raise BlueprintError(f"uses block id {block_id}, which minecraft-data's legacy table does not name")
    base, bracket, properties = name.partition("[")
    return BlockState.parse(LEGACY_RENAMED.get(base, base) + bracket + properties)


def _complete_doors(specs: np.ndarray, states: list[BlockState], cells: np.ndarray, size: tuple[int, int, int]) -> None:
    """Each door half standing on (or under) its other half takes the properties that half holds."""
    width, _, length = size
    layer = width * length
    doors = [i for i, s in enumerate(states) if s.properties.get("half") == "lower" and "hinge" in s.properties]
    for lower_at in np.flatnonzero(np.isin(cells, doors)).tolist():
        upper_at = lower_at + layer
        if upper_at >= cells.size:
            continue
        lower, upper = states[cells[lower_at]], states[cells[upper_at]]
        if upper.name != lower.name or upper.properties.get("half") != "upper":
            continue
        merged = {**lower.properties, **{k: upper.properties[k] for k in DOOR_UPPER_HOLDS}}
        specs[lower_at] = BlockState(name=lower.name, properties=merged).spec()
        specs[upper_at] = BlockState(name=lower.name, properties={**merged, "half": "upper"}).spec()
