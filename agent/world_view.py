"""Plain-text views of what the bot sees, for people reading a terminal."""

from __future__ import annotations

from collections import Counter

from agent.bridge.models import BlockBox

# One character per block in the top-down map; anything else shows as '#'.
MAP_CHARS = {None: "?", "air": ".", "water": "~", "lava": "!", "grass_block": '"', "dirt": ",", "bedrock": "="}


def block_counts(box: BlockBox) -> list[tuple[str, int]]:
    """Block names in the box, commonest first (unloaded blocks as 'unloaded')."""
    counts = Counter(name or "unloaded" for name in box.names())
    return counts.most_common()


def top_down(box: BlockBox, dy: int) -> list[str]:
    """The layer `dy` blocks above the feet block, north at the top, west at the left; '@' is the bot."""
    side = 2 * box.radius + 1
    layer = (dy + box.half_height) * side * side
    names = box.names()[layer : layer + side * side]
    rows = []
    for dz in range(side):  # z grows southward: first row is north
        row = [MAP_CHARS.get(names[dz * side + dx], "#") for dx in range(side)]
        if dz == box.radius:
            row[box.radius] = "@"
        rows.append("".join(row))
    return rows
