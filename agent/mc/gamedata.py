"""What the game names, read from the minecraft-data the bridge uses (bridge/node_modules):
block and item names for a Minecraft version, so that Python can tell `oak_log` from `oak_logs`
without asking a bot; what blocks drop and need to be dug with, crafting recipes, and the
smelting table the server's furnaces use (bridge/lib/smelting.json). A version minecraft-data
does not know reads as the local server's."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agent.mc.version import DEFAULT_VERSION
from agent.paths import BRIDGE_DIR, NODE_MODULES

MINECRAFT_DATA = NODE_MODULES / "minecraft-data" / "minecraft-data" / "data"
# The last version before the flattening renamed ids (wooden_door became oak_door in 1.13).
LEGACY_VERSION = "1.12.2"
SMELTING_TABLE = BRIDGE_DIR / "lib" / "smelting.json"


def _read(kind: str, mc_version: str | None) -> Any:
    """minecraft-data's `kind` file (blocks, items: lists; recipes: an object) for the version."""
    paths = json.loads((MINECRAFT_DATA / "dataPaths.json").read_text(encoding="utf-8"))["pc"]
    where = paths.get(mc_version or DEFAULT_VERSION, paths[DEFAULT_VERSION])[kind]
    return json.loads((MINECRAFT_DATA / where / f"{kind}.json").read_text(encoding="utf-8"))


@cache
def _item_names_by_id(mc_version: str | None) -> dict[int, str]:
    return {i["id"]: i["name"] for i in _read("items", mc_version)}


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
def legacy_names() -> dict[str, str]:
    """Each item and block id of 1.12 as the flattening renamed it (its plain variant, data value 0),
    from minecraft-data's legacy table: wooden_door -> oak_door, cooked_fish -> cooked_cod."""
    table = json.loads((MINECRAFT_DATA / "pc" / "common" / "legacy.json").read_text(encoding="utf-8"))
    renamed: dict[str, str] = {}
    for kind in ("blocks", "items"):  # an item's name wins over its block's (tallgrass the item is grass)
        for old in _read(kind, LEGACY_VERSION):
            new = table[kind].get(f"{old['id']}:0")
            if new is not None:
                renamed[old["name"]] = new.removeprefix("minecraft:")
    return renamed


@cache
def block_drops(mc_version: str | None = None) -> dict[str, frozenset[str]]:
    """What each block drops when dug with the right tool, by item name (stone: cobblestone)."""
    items = _item_names_by_id(mc_version)
    return {b["name"]: frozenset(items[d] for d in b.get("drops", []) if d in items) for b in _read("blocks", mc_version)}


def mined(name: str, mc_version: str | None = None) -> str:
    """What digging the block `name` gives, when it is one item other than itself (stone ->
    cobblestone, coal_ore -> coal); else the name."""
    drops = block_drops(mc_version).get(name)
    if drops and name not in drops and len(drops) == 1:
        return next(iter(drops))
    return name


class Recipe(BaseModel):
    """One way to craft an item: the ingredients it takes, by name, and how many one craft makes."""

    model_config = ConfigDict(frozen=True)
    ingredients: dict[str, int]
    makes: int
    needs_table: bool = Field(description="larger than the inventory's 2x2 grid: a crafting table's 3x3")


@cache
def recipes(mc_version: str | None = None) -> dict[str, tuple[Recipe, ...]]:
    """minecraft-data's crafting recipes for the version, by the name of the item they make."""
    items = _item_names_by_id(mc_version)
    book: dict[str, tuple[Recipe, ...]] = {}
    for result_id, variants in _read("recipes", mc_version).items():
        name = items.get(int(result_id))
        made = [_recipe(v, items) for v in variants]
        if name:
            book[name] = tuple(r for r in made if r is not None)
    return book


def _recipe(variant: dict[str, Any], items: dict[int, str]) -> Recipe | None:
    rows = variant.get("inShape")
    cells = [c for row in rows for c in row] if rows else variant.get("ingredients", [])
    ids = [c["id"] if isinstance(c, dict) else c for c in cells]
    counts = Counter(items[i] for i in ids if i is not None and i != -1 and i in items)
    if not counts:
        return None
    result = variant["result"]
    wide = rows is not None and (len(rows) > 2 or max(len(r) for r in rows) > 2)
    return Recipe(ingredients=dict(counts), makes=result.get("count", 1) if isinstance(result, dict) else 1,
                  needs_table=wide or (rows is None and len(ids) > 4))


@cache
def harvest_tools(mc_version: str | None = None) -> dict[str, frozenset[str]]:
    """The tools, by name, that get a block's drops when it is dug (none listed: the hand does)."""
    items = _item_names_by_id(mc_version)
    return {b["name"]: frozenset(items[int(t)] for t in b.get("harvestTools") or {} if int(t) in items)
            for b in _read("blocks", mc_version)}


@cache
def dropped_by(mc_version: str | None = None) -> dict[str, frozenset[str]]:
    """The blocks that drop each item when dug (cobblestone: stone and cobblestone)."""
    by: dict[str, set[str]] = {}
    for block, drops in block_drops(mc_version).items():
        for item in drops:
            by.setdefault(item, set()).add(block)
    return {item: frozenset(blocks) for item, blocks in by.items()}


class Smelting(BaseModel):
    """What a furnace makes (bridge/lib/smelting.json, the table the server's furnaces use)."""

    model_config = ConfigDict(frozen=True)
    recipes: dict[str, str] = Field(description="input name -> output name")
    fuel_ticks: dict[str, int]
    fuel_ticks_by_suffix: dict[str, int]
    fuel_ticks_by_prefix: dict[str, int]
    smelt_ticks: int = Field(description="ticks (1/20 s) of burning one item takes")

    def fuel(self, name: str) -> int:
        """Ticks an item burns for; 0: not a fuel. The same rules as bridge/lib/smelting.js."""
        if name in self.fuel_ticks:
            return self.fuel_ticks[name]
        by_suffix = (t for s, t in self.fuel_ticks_by_suffix.items() if name.endswith(s))
        by_prefix = (t for p, t in self.fuel_ticks_by_prefix.items() if name.startswith(p))
        return next(by_suffix, next(by_prefix, 0))

    def inputs_for(self, output: str) -> list[str]:
        return [i for i, o in self.recipes.items() if o == output]


@cache
def smelting() -> Smelting:
    return Smelting.model_validate_json(SMELTING_TABLE.read_text(encoding="utf-8"))
