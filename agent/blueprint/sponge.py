"""Sponge schematics (.schem, WorldEdit's format): v1 and v2 keep the palette and block data at the
root, v3 (WorldEdit 7.3 on) nests them under `Schematic` and `Blocks`. The palette maps a block
state (`minecraft:oak_stairs[facing=east,half=top,...]`) to an index; the block data holds one
varint index per cell, y then z then x.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agent.blueprint.errors import BlueprintError
from agent.blueprint.grid import Region

VERSIONS = (1, 2, 3)


def _body(root: dict[str, Any]) -> dict[str, Any]:
    """The schematic's fields: v3 nests them in a `Schematic` compound, or (some writers) makes
    `Schematic` the name of the root itself, which the NBT reader drops."""
    return root.get("Schematic", root)


def is_sponge(root: dict[str, Any]) -> bool:
    body = _body(root)
    blocks = body.get("Blocks")
    return ("Palette" in body and "BlockData" in body) or (isinstance(blocks, dict) and "Palette" in blocks)


def sponge_version(root: dict[str, Any]) -> int:
    body = _body(root)
    version = body.get("Version")
    if version not in VERSIONS:
        raise BlueprintError(f"is a Sponge schematic of version {version}: versions {VERSIONS} are read")
    return version


def sponge_regions(root: dict[str, Any]) -> list[Region]:
    """The one box of a Sponge schematic, v1 to v3."""
    version = sponge_version(root)
    body = _body(root)
    blocks = body.get("Blocks", {}) if version == 3 else body
    try:
        # Sizes are unsigned shorts that NBT stores signed.
        size = tuple(body[k] & 0xFFFF for k in ("Width", "Height", "Length"))
        palette_by_index = {int(index): name for name, index in blocks["Palette"].items()}
        data = blocks["BlockData" if version < 3 else "Data"]
    except KeyError as e:
        raise BlueprintError(f"is a Sponge v{version} schematic without its {e.args[0]} field") from None
    # WorldEdit numbers its palette without gaps; a gap another writer leaves reads as air.
    palette = [palette_by_index.get(i, "minecraft:air") for i in range(max(palette_by_index, default=-1) + 1)]
    return [Region(corner=(0, 0, 0), size=size, palette=palette, cells=varints(data))]


def varints(data: np.ndarray) -> np.ndarray:
    """The unsigned LEB128 varints packed in a byte array: 7 bits a byte, low bits first, the high
    bit set on every byte but a number's last. Vectorised: a 100k-cell file decodes at once."""
    raw = data.astype(np.uint8)
    if raw.size and raw[-1] & 0x80:
        raise BlueprintError("has block data that ends inside a number")
    ends = np.flatnonzero(raw < 0x80)
    starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
    lengths = ends - starts + 1
    values = np.zeros(ends.size, dtype=np.int64)
    for k in range(int(lengths.max(initial=0))):
        more = lengths > k
        values[more] |= (raw[starts[more] + k].astype(np.int64) & 0x7F) << (7 * k)
    return values
