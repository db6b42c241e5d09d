"""The game's things by every name players and other tools give them, as today's ids: the id
itself, an id of an older version (minecraft-data's legacy table: wooden_door is oak_door, fish
is cod), an id renamed since or written by another tool (rose_red is red_dye), a player's word
for it ("cobble", "a workbench"), and words for a kind ("wool", "planks", "a bed": every id of the
family, cheapest first). One table (aliases.yaml) serves the goal reader (agent/goals) and
peers' files (a Mindcraft task's inventory)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import Field

from agent.config.layers import StrictModel, load_model_file
from agent.mc.gamedata import block_names, item_names, legacy_names

ALIASES_FILE = Path(__file__).with_name("aliases.yaml")
# Ids a family word never stands for: stripped logs and potted plants are made from the others.
NOT_MEMBERS = ("stripped_", "potted_", "infested_")


class Aliases(StrictModel):
    """aliases.yaml, typed."""

    renamed: dict[str, str] = Field(description="an id of another version or tool -> today's id")
    words: dict[str, str] = Field(description="a player's word for a thing -> its id")
    families: dict[str, str] = Field(description="a word for a kind -> the suffix its ids share")
    materials: dict[str, list[str]] = Field(description="a material word -> the first words of the ids it allows")
    tiers: list[str] = Field(description="first words of ids, in the order a family's members are offered")


@cache
def aliases() -> Aliases:
    return load_model_file(Aliases, ALIASES_FILE)


@cache
def game_names(mc_version: str | None = None) -> frozenset[str]:
    """Every item and block id of the version."""
    return item_names(mc_version) | block_names(mc_version)


def today(name: str, mc_version: str | None = None) -> str | None:
    """The id `name` stands for in the version (written with `_` between words, lower case): itself,
    what it was renamed to, or the player's word's thing; None when it is no name of the game."""
    names = game_names(mc_version)
    if name in names:
        return name
    table = aliases()
    for step in (table.renamed, legacy_names(), table.words, _run_together(mc_version)):
        found = step.get(name)
        if found is not None and found in names:
            return found
    return None


@cache
def _run_together(mc_version: str | None) -> dict[str, str]:
    """Ids as one word, the way players often write them: "slimeball" is slime_ball, "ironingot"
    iron_ingot (where no two ids run together alike)."""
    joined: dict[str, list[str]] = {}
    for name in game_names(mc_version):
        if "_" in name:
            joined.setdefault(name.replace("_", ""), []).append(name)
    return {word: ids[0] for word, ids in joined.items() if len(ids) == 1}


def item_id(name: str, mc_version: str | None = None) -> str | None:
    """The item `name` is today (a peer's file may write rose_red or wooden_door); None when none."""
    found = today(name.removeprefix("minecraft:"), mc_version)
    return found if found in item_names(mc_version) else None


def family_suffix(word: str) -> str | None:
    """The suffix shared by the ids of the kind a word names ("wool": _wool), or None."""
    return aliases().families.get(word)


def members(suffix: str, names: frozenset[str], material: str | None = None) -> tuple[str, ...]:
    """The ids among `names` of the family ending in `suffix` (music discs: starting with it), of the
    material when one is given ("wooden": oak, spruce, ...), in the table's order of tiers."""
    allowed = aliases().materials.get(material, [material]) if material else None
    found = [n for n in names if (n.startswith(suffix) if suffix.endswith("_") else n.endswith(suffix))
             and n != suffix.strip("_") and not n.startswith(NOT_MEMBERS)]
    if allowed is not None:
        found = [n for n in found if any(n.startswith(m + "_") for m in allowed)]
    return tuple(sorted(found, key=_offered))


def _offered(name: str) -> tuple[int, int, str]:
    tiers = aliases().tiers
    first = next((i for i, t in enumerate(tiers) if name.startswith(t + "_")), len(tiers))
    return first, len(name), name
