"""A structure asked in words ("build a small house", "put up a wall around the chest", "build a
4 block high tower of cobblestone"): the template a word names (server-config/structures/, by
its names and their plurals), its numbers from the words after them ("6 blocks high", "a 7x7
house"), its blocks from the block names said (a spruce door to the door, cobblestone to the
material), and where it goes: "around" a thing named after that word, else ahead of the bot
("three blocks in front of you", or the template's distance). The world places it when the run
starts (grounding.py); until then its check is the structure placed at the origin, looking south.

A structure no template names is an error that lists those known: never a silent wrong build.
"""

from __future__ import annotations

import re

from agent.blueprint.templates import MAX_AHEAD, Order, StructureError, Template, templates
from agent.goals.reading.lexicon import lexicon
from agent.goals.reading.nouns import names_in
from agent.goals.understanding import SubGoal
from agent.goals.reading.words import NUMBER_WORDS, Word, word, words_of

# The verbs that put a structure up: "build a castle" asks for one that no template builds.
BUILD = re.compile(r"\b(?:build|make|construct|create|put up|set up|erect|raise)\b")
# Words before a structure's name that make it a place, not the thing built: "a pickaxe near the house".
PLACE_WORDS = frozenset("near by beside next to in inside into at behind around from on onto under over across "
                        "for with".split())
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
    read = [w for w in words_of(text) if not w.punct]
    words = [w.text for w in read]
    built = _built_word(text, words)
    if built is None:
        return None
    around = AROUND.search(text)
    after = len([w for w in words_of(text[:around.end()]) if not w.punct]) if around else len(words)
    found = names_in(read[after:], "block", mc_version) if around else []
    thing = (found[0][0], after + found[0][1], after + found[0][2]) if found else None
    if around and thing is None:
        raise StructureError(f"{clause!r}: around what? Name a block there (around the chest)")
    name, template = _template(words[built], thing is not None, clause)
    left = [w if i != built and (thing is None or not thing[1] <= i < thing[2]) else word(",") for i, w in
            enumerate(read)]  # the template's word and the thing it goes around are no material
    values = {**_numbers(left, template), **_blocks(left, template, mc_version)}
    ahead = _count(said["n"]) if (said := AHEAD.search(text)) and thing is None else None
    if ahead is not None and not 1 <= ahead <= MAX_AHEAD:
        raise StructureError(f"{clause!r}: a structure goes 1 to {MAX_AHEAD} blocks ahead, not {ahead}")
    order = Order(template=name, values=values, ahead=ahead, around=thing[0].name if thing is not None else None)
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
    names = set(lexicon().structure_words) | {n for t in templates().values() for n in t.names}
    for i in range(len([w for w in words_of(text[:verb.start()]) if not w.punct]), len(words)):
        if words[i] in PLACE_WORDS:
            return None
        if set(word(words[i]).forms()) & names:
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
    found = [(name, t) for name, t in templates().items() if set(_forms(word)) & set(t.names)]
    fitting = [(name, t) for name, t in found if (t.placed == "around") == around]
    if fitting:
        return fitting[0]
    if found:
        how = "around a thing named after 'around' (around the chest)" if found[0][1].placed == "around" \
            else "ahead of the bot, not around a thing"
        raise StructureError(f"{clause!r}: a {word} goes {how}")
    raise StructureError(f"{clause!r} asks for a {word}, which I do not build; I build: {known()}")


def _forms(text: str) -> tuple[str, ...]:
    return word(text).forms()


def _numbers(words: list[Word], template: Template) -> dict[str, int]:
    """Each number followed (past "block(s)") by a word a numeric parameter names: "6 high"."""
    generic = set(lexicon().measure_words)
    values: dict[str, int] = {}
    for i, w in enumerate(words):
        n = int(w.number) if w.number is not None and w.text not in ARTICLES else None
        j = i + 1
        while j < len(words) and set(words[j].forms()) & generic:
            j += 1
        if n is None or j == len(words):
            continue
        for key, param in template.params.items():
            if not param.is_block and words[j].text in param.words:
                values.setdefault(key, n)
    return values


def _blocks(words: list[Word], template: Template, mc_version: str | None) -> dict[str, str]:
    """Each block named goes to the block parameter of its family (the last word of the names:
    spruce_door to a door's), else to the first block parameter."""
    params = [key for key, p in template.params.items() if p.is_block]
    values: dict[str, str] = {}
    for named, _, _ in names_in(words, "block", mc_version):
        family = [k for k in params if str(template.params[k].default).rsplit("_", 1)[-1] == named.name.rsplit("_", 1)[-1]]
        key = (family or params or [None])[0]
        if key is not None:
            values.setdefault(key, named.name)
    return values


def _count(text: str) -> int | None:
    return int(text) if text.isdigit() else NUMBER_WORDS.get(text)
