"""A check from a goal's own words, for a run given none: the common phrasings of getting things
("Collect three oak logs" -> has_item oak_log 3), of finding a block ("Stand next to the gold
block" -> near_block gold_block 2) and of storing things ("Put five oak logs into the chest" ->
container_has oak_log 5), of following a player ("Follow alex" -> near_player alex 3) and of
reaching open sky ("get out of the cave to open sky" -> sky_visible), by rules, with the names the game has (agent/world/gamedata).
A goal no rule reads gets no check and stays unverified: a wrong check is worse than none.

The derived check names no place: near_block says whether one is near, never where, and
container_has looks in the chests near the bot."""

from __future__ import annotations

import re

from agent.checks.model import (Check, ContainerHas, HasItem, Item, NearBlock, Nearness, NearPlayer, PlayerNearness, SkyVisible,
                                Stock)
from agent.world.gamedata import block_names, item_names

NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12, "sixteen": 16}
_COUNT = r"\d{1,4}|" + "|".join(sorted(NUMBERS, key=len, reverse=True))
_GET = r"collect|gather|get|obtain|mine|chop|harvest|pick up|fetch|acquire|have|take|craft|make|smelt"
_NEAR = r"(?:stand|be|get|go|walk|move|come)\s+(?:right\s+)?(?:next to|beside|by|near|close to|up to|to)"
_THE = r"(?:the|a|an|some|any)\s+"
# The words of a name run to the end of the clause.
_NAME = r"(?P<name>[a-z][a-z ]*?)\s*(?:[.,;!]|\band\b|\bthen\b|\bfrom\b|\bnear\b|\bin\b|\binto\b|\bwith\b|$)"
HAVE = re.compile(rf"\b(?:{_GET})\s+(?P<count>{_COUNT})\s+(?:pieces? of\s+|blocks? of\s+)?{_NAME}", re.IGNORECASE)
STORE = re.compile(rf"\b(?:put|place|store|deposit|stash|leave)\s+(?:{_THE})?(?:(?P<count>{_COUNT})\s+)?{_NAME}"
                   rf"(?<=in|to)\s+(?:{_THE})?chest", re.IGNORECASE)
FOLLOW = re.compile(r"\b(?:follow|accompany|escort|keep up with|stay (?:close )?(?:to|with))\s+(?:the player\s+)?(?P<name>\w{3,16})\b",
                    re.IGNORECASE)
# Who "follow me" means is the speaker's name, which the words do not give.
PRONOUNS = {"me", "him", "her", "them", "you", "the", "that", "this", "someone", "anyone", "everyone"}
SKY = re.compile(r"\b(?:open sky|see the sky|under the sky|sky above|sky (?:is )?visible)\b", re.IGNORECASE)
NEAR = [re.compile(rf"\b(?:{_NEAR})\s+(?:{_THE})?{_NAME}", re.IGNORECASE), re.compile(rf"\bfind\s+{_THE}{_NAME}", re.IGNORECASE)]
# Words that say how a thing comes, not what it is: "dirt blocks" is dirt.
GENERIC = {"block", "blocks", "item", "items", "piece", "pieces"}
NEAR_DISTANCE = 2.0  # beside the block (1.1 from its centre) or on it
FOLLOW_DISTANCE = 3.0  # mc-follow keeps 2 by default; a step behind still counts


def derive_check(goal: str, mc_version: str | None = None) -> Check | None:
    """The check the goal's words state, or None when no rule reads them."""
    text = goal.lower()
    if (store := STORE.search(text)) is not None and (name := _game_name(store["name"], item_names(mc_version))):
        return ContainerHas(container_has=Stock(name=name, count=_count(store["count"] or "1")))
    if SKY.search(text):
        return SkyVisible(sky_visible=True)
    if (follow := FOLLOW.search(goal)) is not None and follow["name"].lower() not in PRONOUNS:
        return NearPlayer(near_player=PlayerNearness(name=follow["name"], distance=FOLLOW_DISTANCE))
    if (have := HAVE.search(text)) is not None:
        name = _game_name(have["name"], item_names(mc_version))
        count = have["count"]
        if name is not None:
            return HasItem(has_item=Item(name=name, count=_count(count)))
    for phrasing in NEAR:
        if (near := phrasing.search(text)) is not None and (name := _game_name(near["name"], block_names(mc_version))):
            return NearBlock(near_block=Nearness(block=name, distance=NEAR_DISTANCE))
    return None


def _count(words: str) -> int:
    return int(words) if words.isdigit() else NUMBERS[words]


def _game_name(words: str, names: frozenset[str]) -> str | None:
    """The game's name for `words` ("oak logs" -> oak_log, "dirt blocks" -> dirt), or None."""
    parts = words.split()
    while parts:
        for last in _singulars(parts[-1]):
            candidate = "_".join([*parts[:-1], last])
            if candidate in names:
                return candidate
        if parts[-1] not in GENERIC:
            return None
        parts = parts[:-1]
    return None


def _singulars(word: str) -> list[str]:
    """The word, then what it would be without a plural ending."""
    forms = [word]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s"):
        forms.append(word[:-1])
    return forms
