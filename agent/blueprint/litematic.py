"""Litematica schematics (.litematic): named regions, each a box at a position with its own
palette (`BlockStatePalette`: Name and Properties) and its cells packed into a long array at
max(2, bits of the palette's last index) bits each, entries running on from one long into the
next, lowest bits first. A region's size may be negative on any axis: the box then reaches from
its position back that many blocks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agent.blueprint.errors import BlueprintError
from agent.blueprint.grid import Region

# Litematica's file versions since Minecraft 1.13's block states (1.13 to 1.21).
VERSIONS = (4, 5, 6, 7)


def is_litematic(root: dict[str, Any]) -> bool:
    return "Regions" in root


def litematic_regions(root: dict[str, Any]) -> list[Region]:
    """Every region of a Litematica file, placed where the file puts it."""
    version = root.get("Version")
    if version not in VERSIONS:
        raise BlueprintError(f"is a Litematica schematic of version {version}: versions {VERSIONS} are read")
    regions = [_region(name, body) for name, body in root["Regions"].items()]
    if not regions:
        raise BlueprintError("is a Litematica schematic with no region")
    return regions


def _region(name: str, body: dict[str, Any]) -> Region:
    try:
        position = [body["Position"][axis] for axis in "xyz"]
        signed = [body["Size"][axis] for axis in "xyz"]
        palette = [_spec(entry) for entry in body["BlockStatePalette"]]
        packed = body["BlockStates"]
    except KeyError as e:
        raise BlueprintError(f"has a region {name!r} without its {e.args[0]} field") from None
    corner = tuple(p + s + 1 if s < 0 else p for p, s in zip(position, signed))
    size = tuple(abs(s) for s in signed)
    count = size[0] * size[1] * size[2]
    return Region(corner=corner, size=size, palette=palette, cells=unpack(packed, count, _bits(len(palette)), name))


def _spec(entry: dict[str, Any]) -> str:
    properties = ",".join(f"{k}={v}" for k, v in entry.get("Properties", {}).items())
    return f"{entry['Name']}[{properties}]" if properties else entry["Name"]


def _bits(palette_size: int) -> int:
    return max(2, (palette_size - 1).bit_length())


def unpack(packed: np.ndarray, count: int, bits: int, region: str) -> np.ndarray:
    """`count` entries of `bits` bits each from a long array, spanning longs, lowest bits first."""
    if packed.size * 64 < count * bits:
        raise BlueprintError(f"has a region {region!r} whose {packed.size} longs hold fewer than its {count} cells")
    stream = np.unpackbits(packed.astype("<u8").view(np.uint8), bitorder="little")[:count * bits]
    return stream.reshape(count, bits).astype(np.int64) @ (1 << np.arange(bits, dtype=np.int64))
