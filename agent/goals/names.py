"""The game's names in a person's words, wherever they stand in the text: "three oak logs" ->
oak_log, "a couple of dirt blocks" -> dirt, "some wood" -> any log (a kind the world grounds
later), "mine stone" -> cobblestone (what stone drops).

A name is the longest run of words (up to four) that is a game name once joined with `_`, the
last word made singular; "block(s)", "piece(s)" after a name say how it comes, not what it is.
Words that name a kind rather than one thing ("wood", "logs", "planks") stand for every name of
the kind, as Minecraft's item tags (#logs, #planks) do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.mc.gamedata import block_drops

MAX_WORDS = 4
# Words that say how a thing comes, not what it is: "dirt blocks" is dirt.
GENERIC = frozenset({"block", "blocks", "item", "items", "piece", "pieces", "stack", "stacks", "bit", "bits"})
# Words for a kind of thing, as the game's item tags group them, by the suffix their members share.
KINDS = {"wood": "_log", "woods": "_log", "log": "_log", "logs": "_log", "tree": "_log", "trees": "_log",
         "plank": "_planks", "planks": "_planks", "wool": "_wool", "sapling": "_sapling", "saplings": "_sapling"}
# What players call a thing by a shorter word: "get some iron" is an ingot, "seeds" wheat's. Used only
# where the word is no name among those looked for ("find the gold" is a block: gold + _block).
SHORT = {"iron": "iron_ingot", "gold": "gold_ingot", "copper": "copper_ingot", "netherite": "netherite_ingot",
         "seed": "wheat_seeds", "seeds": "wheat_seeds", "table": "crafting_table", "workbench": "crafting_table"}
# A kind's members in the order a player gets them: the cheapest tier first ("a pickaxe" is wooden).
TIERS = ("oak", "wooden", "stone", "leather", "chainmail", "iron", "golden", "diamond", "netherite")
# Families of things named by their last word, whose members differ by material or colour: "a
# pickaxe" is any pickaxe (the kind's members sorted cheapest first), "a bed" any bed.
FAMILIES = frozenset("pickaxe axe shovel hoe sword helmet chestplate leggings boots bed boat door trapdoor fence "
                     "sign slab stairs carpet banner button candle".split())
# "oak wood", "a birch tree": that kind's log, not the bark block the game names oak_wood.
_KIND_OF_TREE = re.compile(r"\b([a-z]+) (?:trees?|wood)\b")
_WORD = re.compile(r"[a-z0-9]+")
# A word that could be a player's username, as written.
USERNAME = re.compile(r"\b\w{3,16}\b")


@dataclass(frozen=True)
class Named:
    """A name found in the text: one game name, or the names of a kind (`kind` says which words);
    `start`/`end` are word positions, end exclusive."""

    names: tuple[str, ...]
    start: int
    end: int
    kind: str | None = None

    @property
    def name(self) -> str:
        """The first of the names: the thing itself, or the kind's first member until the world grounds it."""
        return self.names[0]


def words_of(text: str) -> list[str]:
    return _WORD.findall(_KIND_OF_TREE.sub(r"\1 log", text.lower()))


def find_names(words: list[str], names: frozenset[str], suffix: str = "") -> list[Named]:
    """Every game name among `names` in `words`, left to right, longest first where they overlap;
    a kind word ("logs") that is not part of a longer name stands for the kind's members; with a
    `suffix`, a word that is a name once it is added counts as that name ("gold" + _block)."""
    found: list[Named] = []
    i = 0
    while i < len(words):
        hit = (_longest_at(words, i, names) or _kind_at(words, i, names) or _suffixed_at(words, i, names, suffix)
               or _short_at(words, i, names))
        if hit is None:
            i += 1
            continue
        found.append(hit)
        i = hit.end
    return found


def _longest_at(words: list[str], i: int, names: frozenset[str]) -> Named | None:
    for n in range(min(MAX_WORDS, len(words) - i), 0, -1):
        parts = words[i:i + n]
        for last in forms(parts[-1]):
            candidate = "_".join([*parts[:-1], last])
            if candidate in names and candidate not in GENERIC:
                end = i + n
                while end < len(words) and words[end] in GENERIC:
                    end += 1
                return Named((candidate,), i, end)
    return None


def _suffixed_at(words: list[str], i: int, names: frozenset[str], suffix: str) -> Named | None:
    name = words[i] + suffix
    return Named((name,), i, i + 1) if suffix and name in names else None


def _short_at(words: list[str], i: int, names: frozenset[str]) -> Named | None:
    name = SHORT.get(words[i])
    return Named((name,), i, i + 1) if name in names else None


def _kind_at(words: list[str], i: int, names: frozenset[str]) -> Named | None:
    """A word for a kind (KINDS, or a FAMILIES word: "pickaxe", "beds"); its members the cheapest
    tier first, then by name."""
    word = next((w for w in forms(words[i]) if w in KINDS or w in FAMILIES), None)
    if word is None:
        return None
    suffix = KINDS.get(word, "_" + word)
    members = tuple(sorted((n for n in names if n.endswith(suffix) and not n.startswith(("stripped_", "potted_"))),
                           key=_tier))
    return Named(members, i, i + 1, kind=words[i]) if members else None


def _tier(name: str) -> tuple[int, str]:
    first = name.split("_")[0]
    return (TIERS.index(first) if first in TIERS else len(TIERS), name)


def mined(name: str, mc_version: str | None = None) -> str:
    """What digging the block `name` gives, when it is one item other than itself (stone ->
    cobblestone, coal_ore -> coal); else the name."""
    drops = block_drops(mc_version).get(name)
    if drops and name not in drops and len(drops) == 1:
        return next(iter(drops))
    return name


def forms(word: str) -> list[str]:
    """The word, what it would be without a plural ending, and with one (the game's shears)."""
    found = [word]
    if word.endswith("ies"):
        found.append(word[:-3] + "y")
    if word.endswith("es"):
        found.append(word[:-2])
    if word.endswith("s"):
        found.append(word[:-1])
    return [*found, word + "s"]
