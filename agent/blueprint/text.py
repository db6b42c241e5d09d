"""A blueprint as text, for a person at a terminal: its size, its bill of materials, and each
layer from the ground up as a map of letters, one per kind of block, with a legend."""

from __future__ import annotations

import string
from collections import Counter

from agent.blueprint.files import BlueprintFile
from agent.blueprint.model import Structure
from agent.mc.blockstate import BlockState

# Letters for kinds of block, the most used first; air is `.`, a cell the file leaves as it is ` `.
SYMBOLS = string.ascii_lowercase + string.ascii_uppercase + string.digits + "#%&*+=@$"
AIR_SYMBOL, UNCHANGED_SYMBOL, MORE_SYMBOL = ".", " ", "?"


def describe(blueprint: BlueprintFile) -> str:
    """The whole text: a heading line, the materials, the legend and every layer."""
    s = blueprint.structure
    width, height, length = s.size
    lines = [f"{s.source}: {blueprint.format}, {width} x {height} x {length} (x east, y up, z south), "
             f"{len(s.blocks)} blocks, {len(s.air)} air", "", "materials:"]
    lines += [f"  {count:>6}  {item}" for item, count in s.materials().items()]
    symbols = symbol_of_kind(s)
    lines += ["", f"legend: {AIR_SYMBOL} air, '{UNCHANGED_SYMBOL}' left as it is"]
    lines += [f"  {symbol}  {kind}" for kind, symbol in symbols.items()]
    for y, rows in enumerate(layers(s, symbols)):
        lines += ["", f"y={y} (north at the top, east to the right):", *(f"  {row}" for row in rows)]
    return "\n".join(lines)


def symbol_of_kind(structure: Structure) -> dict[str, str]:
    """A letter for each block name (its state aside), the most used first; past the letters, `?`."""
    kinds = Counter(BlockState.parse(p.block).name for p in structure.blocks)
    return {kind: SYMBOLS[i] if i < len(SYMBOLS) else MORE_SYMBOL for i, (kind, _) in enumerate(kinds.most_common())}


def layers(structure: Structure, symbols: dict[str, str]) -> list[list[str]]:
    """Each layer from y=0 up: its rows from north (z=0) to south, each from west (x=0) to east."""
    width, height, length = structure.size
    grid = [[[UNCHANGED_SYMBOL] * width for _ in range(length)] for _ in range(height)]
    for x, y, z in structure.air:
        grid[y][z][x] = AIR_SYMBOL
    for p in structure.blocks:
        x, y, z = p.at
        grid[y][z][x] = symbols[BlockState.parse(p.block).name]
    return [["".join(row) for row in layer] for layer in grid]
