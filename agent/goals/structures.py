"""A structure asked in words ("build a small house", "put up a wall around the chest", "build a
4 block high tower of cobblestone"): the template a word names (server-config/structures/, by
its names and their plurals), its numbers from the words after them ("6 blocks high", "a 7x7
house"), its blocks from the block names said (a spruce door to the door, cobblestone to the
material), and where it goes: "around" a thing named after that word, else ahead of the bot
("three blocks in front of you", or the template's distance). The world places it when the run
starts (grounds.py); until then its check is the structure placed at the origin, looking south.

A structure no template names is an error that lists those known: never a silent wrong build.
"""

from __future__ import annotations

import re

from agent.blueprint.templates import MAX_AHEAD, Order, StructureError, Template, templates
from agent.goals.names import GENERIC, find_names, forms, words_of
from agent.goals.phrases import BUILD, NUMBERS, PLACE_WORDS, STRUCTURE_WORDS
from agent.goals.understanding import SubGoal
from agent.mc.gamedata import block_names

AROUND = re.compile(r"\b(?:around|round|surrounding|encircling|enclosing)\b")
# How far ahead: "two blocks in front of you", "3 blocks ahead".
AHEAD = re.compile(r"\b(?P<n>\w+) blocks? (?:in front|ahead|forward)\b")
# A square's side: "a 5x5 house", "7 by 7" is 5 (7) wide.
SQUARE = re.compile(r"\b(\d{1,2})\s*(?:x|by)\s*\d{1,2}\b")
ARTICLES = frozenset({"a", "an"})


def read_structure(clause: str, mc_version: str | None = None) -> SubGoal | None:
    """The sub-goal of building what the clause names; None when it asks for no structure;
    StructureError when it asks for one no template builds, or a value out of its bounds."""
    text = SQUARE.sub(r"\1 wide", clause.lower())
    words = words_of(text)
    built = _built_word(text, words)
    if built is None:
        return None
    around = AROUND.search(text)
    after = len(words_of(text[:around.end()])) if around else len(words)
    thing = next(iter(find_names(words[after:], block_names(mc_version))), None) if around else None
    if around and thing is None:
        raise StructureError(f"{clause!r}: around what? Name a block there (around the chest)")
    name, template = _template(words[built], thing is not None, clause)
    left = [w if i != built and (thing is None or not after + thing.start <= i < after + thing.end) else "," for i, w in
            enumerate(words)]  # the template's word and the thing it goes around are no material
    values = {**_numbers(left, template), **_blocks(left, template, block_names(mc_version))}
    ahead = _count(said["n"]) if (said := AHEAD.search(text)) and thing is None else None
    if ahead is not None and not 1 <= ahead <= MAX_AHEAD:
        raise StructureError(f"{clause!r}: a structure goes 1 to {MAX_AHEAD} blocks ahead, not {ahead}")
    order = Order(template=name, values=values, ahead=ahead, around=thing.name if thing is not None else None)
    try:
        check = order.check(feet=(0, 0, 0), facing="south", thing=(0, 0, 0))
    except StructureError as e:
        raise StructureError(f"{clause!r}: {e}") from None
    return SubGoal(says=clause, check=check, building=order)


def _built_word(text: str, words: list[str]) -> int | None:
    """The position of the word naming what a build verb puts up (a template's name or another
    structure's), unless a place word comes between: "make a pickaxe near the house" builds none."""
    verb = BUILD.search(text)
    if verb is None:
        return None
    names = STRUCTURE_WORDS | {n for t in templates().values() for n in t.names}
    for i in range(len(words_of(text[:verb.start()])), len(words)):
        if words[i] in PLACE_WORDS:
            return None
        if set(forms(words[i])) & names:
            return i
    return None


def known() -> str:
    """`house (hut, shelter), ..., enclosure around a thing (wall, ring)`: what can be asked."""
    said = []
    for name, t in templates().items():
        others = [n for n in t.names if n != name]
        where = " around a thing" if t.placed == "around" else ""
        said.append(f"{name}{where}" + (f" ({', '.join(others)})" if others else ""))
    return ", ".join(said)


def _template(word: str, around: bool, clause: str) -> tuple[str, Template]:
    """The template the word names: one placed around a thing when the words name one after
    "around", else one placed ahead."""
    found = [(name, t) for name, t in templates().items() if set(forms(word)) & set(t.names)]
    fitting = [(name, t) for name, t in found if (t.placed == "around") == around]
    if fitting:
        return fitting[0]
    if found:
        how = "around a thing named after 'around' (around the chest)" if found[0][1].placed == "around" \
            else "ahead of the bot, not around a thing"
        raise StructureError(f"{clause!r}: a {word} goes {how}")
    raise StructureError(f"{clause!r} asks for a {word}, which I do not build; I build: {known()}")


def _numbers(words: list[str], template: Template) -> dict[str, int]:
    """Each number followed (past "block(s)") by a word a numeric parameter names: "6 high"."""
    values: dict[str, int] = {}
    for i, word in enumerate(words):
        n = _count(word) if word not in ARTICLES else None
        j = i + 1
        while j < len(words) and words[j] in GENERIC:
            j += 1
        if n is None or j == len(words):
            continue
        for key, param in template.params.items():
            if not param.is_block and words[j] in param.words:
                values.setdefault(key, n)
    return values


def _blocks(words: list[str], template: Template, blocks: frozenset[str]) -> dict[str, str]:
    """Each block named goes to the block parameter of its family (the last word of the names:
    spruce_door to a door's), else to the first block parameter."""
    params = [key for key, p in template.params.items() if p.is_block]
    values: dict[str, str] = {}
    for named in find_names(words, blocks):
        family = [k for k in params if str(template.params[k].default).rsplit("_", 1)[-1] == named.name.rsplit("_", 1)[-1]]
        key = (family or params or [None])[0]
        if key is not None:
            values.setdefault(key, named.name)
    return values


def _count(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBERS.get(word)
