"""What every schematic format stores, in one shape: boxes of cells, each cell an index into a
palette of block states, cells ordered y, then z, then x (x fastest). A reader turns its file
into Regions; `structure_of` turns them into a Structure: the blocks, the air the file asks for,
names checked against the game's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent.blueprint.errors import BlueprintError
from agent.blueprint.model import AIR, Structure
from agent.checks.model import Placement
from agent.mc.blockstate import BlockState
from agent.mc.gamedata import block_names
from agent.mc.version import DEFAULT_VERSION

# A cell the file leaves alone (WorldEdit's and Litematica's "keep what is there"): neither a
# block to place nor air to clear.
UNCHANGED = "structure_void"
# Blocks the game has renamed since 1.13, where the old name is no block in 1.20.4: a file saved
# by an older version reads as the block it meant.
RENAMED = {"grass": "short_grass", "sign": "oak_sign", "wall_sign": "oak_wall_sign", "grass_path": "dirt_path"}
# 256 x 64 x 256: a box past this is a map, not a build (and would not fit a Plan's 8,192 blocks).
MAX_BOX_CELLS = 256 * 64 * 256


@dataclass(frozen=True)
class Region:
    """One box of a file: its lowest north-west corner (x, y, z), its size (x, y, z, positive),
    its palette of block specs (`minecraft:oak_stairs[facing=east,half=top]`) and, for each cell,
    the palette index (y, z, x order)."""

    corner: tuple[int, int, int]
    size: tuple[int, int, int]
    palette: list[str]
    cells: np.ndarray

    def __post_init__(self) -> None:
        width, height, length = self.size
        if min(self.size) < 0 or self.cells.size != width * height * length:
            raise BlueprintError(f"holds {self.cells.size} cells for a box of {width} x {height} x {length}")
        if self.cells.size and (self.cells.min() < 0 or self.cells.max() >= len(self.palette)):
            raise BlueprintError(f"has a cell outside its palette of {len(self.palette)} entries")


def structure_of(source: str, regions: list[Region]) -> Structure:
    """The regions' cells as one Structure, offsets from the lowest north-west corner of all of
    them; where regions overlap, the later one's cell counts; a cell none covers is left as it is."""
    _check_names(regions)
    low = np.min([r.corner for r in regions], axis=0)
    width, height, length = (int(n) for n in np.max([np.add(r.corner, r.size) for r in regions], axis=0) - low)
    if width * height * length > MAX_BOX_CELLS:
        raise BlueprintError(f"spans {width} x {height} x {length} blocks, {width * height * length} cells: "
                             f"blueprints of up to {MAX_BOX_CELLS} cells are read")
    # The whole box, y then z then x, as indices into one palette of every region's specs.
    specs = [UNCHANGED]
    box = np.zeros(width * height * length, dtype=np.int64)
    for region in regions:
        x, y, z = _coordinates(np.arange(region.cells.size), region.size[0], region.size[2])
        dx, dy, dz = np.subtract(region.corner, low)
        box[((y + dy) * length + z + dz) * width + x + dx] = region.cells + len(specs)
        specs += [_spec(entry) for entry in region.palette]
    is_air = np.array([spec == "air" for spec in specs])[box]
    is_block = np.array([spec not in ("air", UNCHANGED) for spec in specs])[box]
    at_block = np.flatnonzero(is_block)
    blocks = [Placement(at=at, block=specs[i]) for at, i in zip(_cells(at_block, width, length), box[at_block].tolist())]
    air = _cells(np.flatnonzero(is_air), width, length)
    return Structure(source=source, size=(width, height, length), blocks=blocks, air=air)


def _coordinates(index: np.ndarray, width: int, length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x, y, z of each cell index of a box `width` by `length` across, cells ordered y, then z, then x."""
    return index % width, index // (width * length), (index // width) % length


def _cells(index: np.ndarray, width: int, length: int) -> list[tuple[int, int, int]]:
    return list(zip(*(axis.tolist() for axis in _coordinates(index, width, length))))


def _check_names(regions: list[Region]) -> None:
    """Every block the cells use is one the game knows; else BlueprintError naming them all."""
    known = block_names() | AIR
    unknown = sorted({
        entry for region in regions for i in np.unique(region.cells).tolist()
        if under_todays_name(entry := region.palette[i]).split("[")[0] not in known
    })
    if unknown:
        raise BlueprintError(f"names blocks Minecraft {DEFAULT_VERSION} does not know: {', '.join(unknown)} "
                             f"(a mod's, or a newer version's)")


def _spec(entry: str) -> str:
    """A palette entry as our spec, air of any kind as `air`."""
    try:
        state = BlockState.parse(under_todays_name(entry))
    except ValueError:
        raise BlueprintError(f"names {entry!r}, which is not a block state (name[property=value,...])") from None
    return "air" if state.name in AIR else state.spec()


def under_todays_name(entry: str) -> str:
    """The entry without the `minecraft:` namespace, under the block's name today."""
    name, bracket, properties = entry.removeprefix("minecraft:").partition("[")
    return RENAMED.get(name, name) + bracket + properties
