"""What the game names, read from the minecraft-data the bridge uses (bridge/node_modules):
block and item names for a Minecraft version, so that Python can tell `oak_log` from `oak_logs`
without asking a bot. A version minecraft-data does not know reads as the local server's."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from agent.paths import NODE_MODULES
from agent.server.settings import DEFAULT_LOCAL_VERSION

MINECRAFT_DATA = NODE_MODULES / "minecraft-data" / "minecraft-data" / "data"


def _read(kind: str, mc_version: str | None) -> list[dict[str, Any]]:
    """minecraft-data's `kind` list (blocks, items) for the version."""
    paths = json.loads((MINECRAFT_DATA / "dataPaths.json").read_text(encoding="utf-8"))["pc"]
    where = paths.get(mc_version or DEFAULT_LOCAL_VERSION, paths[DEFAULT_LOCAL_VERSION])[kind]
    return json.loads((MINECRAFT_DATA / where / f"{kind}.json").read_text(encoding="utf-8"))


@cache
def passable_blocks(mc_version: str | None = None) -> frozenset[str]:
    """Names of the blocks a body passes (no collision box: air, grass, flowers, water), the same
    test as bridge/helpers/blocks.js."""
    return frozenset(b["name"] for b in _read("blocks", mc_version) if b["boundingBox"] == "empty")


@cache
def block_names(mc_version: str | None = None) -> frozenset[str]:
    return frozenset(b["name"] for b in _read("blocks", mc_version))


@cache
def item_names(mc_version: str | None = None) -> frozenset[str]:
    return frozenset(i["name"] for i in _read("items", mc_version))


@cache
def block_drops(mc_version: str | None = None) -> dict[str, frozenset[str]]:
    """What each block drops when dug with the right tool, by item name (stone: cobblestone)."""
    items = {i["id"]: i["name"] for i in _read("items", mc_version)}
    return {b["name"]: frozenset(items[d] for d in b.get("drops", []) if d in items) for b in _read("blocks", mc_version)}
