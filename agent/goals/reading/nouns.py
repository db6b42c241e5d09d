"""Noun phrases of a goal: what a thing is, how many, and which ("three oak logs", "the dirt you
are carrying", "every log of that tree", "everything in it", "a couple of those yellow flowers").

A phrase is read as determiners and quantities, then the words that name the thing, then what
follows it ("of that tree", "you are carrying"). The naming words are matched against the game's
names through agent/mc/aliases: the longest run of words (up to four) that is an id once joined
with `_` (the last word in any of its forms: "logs", "leaves", "shears"), a family ("wool", "a
bed", "a wooden fence": any of them), or a player's word ("cobble", "the pond"). A naming word no
name covers, and no adjective that changes nothing, leaves the phrase unread: "three shiny things"
is not three of anything (a wrong reading is worse than none).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agent.goals.reading.lexicon import lexicon, phrase_at
from agent.goals.reading.words import Word
from agent.mc.aliases import aliases, family_suffix, game_names, members, today
from agent.mc.gamedata import block_names, item_names

MAX_NAME_WORDS = 4
# "oak wood", "a birch tree": that kind's log, not the bark block the game names oak_wood.
TREE_WORDS = frozenset({"wood", "tree", "trees", "trunk", "log", "logs", "woods"})
PRONOUNS = frozenset({"it", "them", "they", "those", "these", "one", "ones", "that", "this", "em", "'em"})
# Words after a thing that say it is the one carried: "the dirt you are carrying", "your logs".
CARRIED = ("you are carrying", "you carry", "you have", "you have got", "you got", "you are holding", "you hold",
           "you own", "you already have", "in your inventory", "on you", "you are holding onto", "you picked up",
           "you collected", "you gathered", "you brought", "in your bag", "in your pack", "in your backpack",
           "in your pockets", "in your pocket", "in your hands", "in your hand", "on hand", "with you")
# Words after a thing that say it is in a container: "everything in it", "what is in the chest".
IN = ("in", "inside", "inside of", "within", "from", "out of", "stored in", "kept in")
# Ids that are no thing: "get some air" asks for nothing.
NOTHING = frozenset({"air", "cave_air", "void_air"})
Role = Literal["item", "block", "dig", "container", "any"]


@dataclass(frozen=True)
class Named:
    """What a phrase's naming words are in the game: one id, or a family's ids (`kind` is the word)."""

    names: tuple[str, ...]
    kind: str | None = None

    @property
    def name(self) -> str:
        return self.names[0]


@dataclass
class Phrase:
    """A noun phrase as read; `naming` are the words that say what the thing is."""

    words: list[Word] = field(default_factory=list)
    naming: list[Word] = field(default_factory=list)
    count: int | None = None
    every: bool = False  # "all", "every", "the whole", "everything"
    definite: bool = False  # "the", "that": one already in the world, the nearest
    carried: bool = False  # "your", "you are carrying": the one carried, all of it
    pronoun: str | None = None  # "it", "them": the thing said before
    contents: bool = False  # "everything" (in it, in the chest): what a container holds
    of: Phrase | None = None  # "of that tree", "in the chest": the thing it is part of, or in

    @property
    def says(self) -> str:
        return " ".join(w.written for w in self.words)

    @property
    def empty(self) -> bool:
        return not self.naming and self.pronoun is None and not self.contents


def noun_phrase(words: list[Word], i: int, stop: frozenset[str] = frozenset()) -> tuple[Phrase, int]:
    """The phrase starting at words[i] and the position after it (i itself when none starts there).
    `stop`: words that end it besides prepositions, verbs of a new clause and punctuation."""
    lex = lexicon()
    phrase, j = Phrase(), i
    j = _determiners(words, j, phrase)
    if j < len(words) and words[j].text in PRONOUNS and not _names_at(words, j):
        phrase.pronoun, j = words[j].text, j + 1
    elif j < len(words) and (words[j].text == "everything" or words[j].text in ("anything", "whatever", "what") and
                             _contained(words, _after_is(words, j + 1), Phrase(), stop) > _after_is(words, j + 1)):
        phrase.contents, phrase.every, j = True, True, _after_is(words, j + 1)  # "whatever is in the chest"
    while j < len(words) and words[j].text != "of" or j < len(words) and _inside_name(words, j, phrase):
        inside = _inside_name(words, j, phrase)
        if _ends(words, j, stop) and not inside:
            break
        phrase.naming.extend(words[j:j + max(inside, 1)])
        j += max(inside, 1)
    j = _measured(words, j, phrase, stop)
    j = _carried(words, j, phrase)
    if j < len(words) and words[j].text == "of" and phrase.naming:  # "the logs of that tree"
        inner, k = noun_phrase(words, j + 1, stop)
        if not inner.empty:
            phrase.of, j = inner, k
    if phrase.contents:
        j = _contained(words, j, phrase, stop)
    phrase.words = words[i:j]
    if phrase.naming and phrase.naming[-1].text in lex.all_words:  # "take them all"
        phrase.every = True
        phrase.naming.pop()
    return phrase, j


def _inside_name(words: list[Word], j: int, phrase: Phrase) -> int:
    """How many words from words[j] a name runs on through ("flint and steel", "carrot on a stick",
    "lily of the valley"): 0 where the words there end the thing instead."""
    if not phrase.naming or words[j].text not in ("and", "on", "of", "o", "the", "a"):
        return 0
    for back in (2, 1):
        for ahead in (3, 2, 1):
            joined = [*(w.text for w in phrase.naming[-back:]), *(w.text for w in words[j:j + ahead])]
            if len(phrase.naming) >= back and j + ahead <= len(words) and today("_".join(joined)) is not None:
                return ahead
    return 0


def _determiners(words: list[Word], j: int, phrase: Phrase) -> int:
    """Determiners, quantities and numbers before the naming words: "all of the", "3", "some",
    "your", "at least 4", "lots of"."""
    lex = lexicon()
    dets = lex.determiners
    while j < len(words):
        w = words[j]
        if w.number is not None and not _is_coordinate(words, j):
            phrase.count = max(1, int(w.number))
        elif w.text in lex.all_words and w.text not in ("everything",):
            phrase.every = True
        elif w.text in dets.definite and not (w.text in PRONOUNS and _ends(words, j + 1, frozenset())):
            phrase.definite = True
        elif w.text in dets.carried:
            phrase.carried = True
        elif w.text in dets.speaker:
            pass
        elif w.text in lex.quantities and (w.text not in PRONOUNS) and not _names_at(words, j):
            phrase.count = phrase.count or lex.quantities[w.text]
        elif w.text in dets.indefinite and w.text not in PRONOUNS | {"some", "any"}:
            pass
        elif w.text in ("at", "no", "not") and j + 1 < len(words) and words[j + 1].text in ("least", "less", "fewer",
                                                                                              "more", "most"):
            j += 1
        elif w.text in ("exactly", "about", "around", "roughly", "approximately", "least", "only", "like", "just",
                        "another", "x") or (w.text == "of" and j > 0 and (words[j - 1].text in {*lex.all_words, *lex.quantities} or words[j - 1].number is not None)):
            pass
        else:
            return j
        j += 1
    return j


def _names_at(words: list[Word], j: int) -> bool:
    """Whether a game name starts at words[j] ("one" is no name; "pile" of dirt is)."""
    return today(words[j].text) is not None and words[j].text not in PRONOUNS | {"some", "any", "pile", "stack", "load"}


def _is_coordinate(words: list[Word], j: int) -> bool:
    """Three numbers in a row (commas between allowed) are a place, not a count."""
    nums = [w for w in words[j:j + 5] if not w.punct]
    return len(nums) >= 3 and all(w.number is not None for w in nums[:3])


def _ends(words: list[Word], j: int, stop: frozenset[str]) -> bool:
    """Whether the naming words end before words[j]."""
    if j >= len(words):
        return True
    w = words[j]
    lex = lexicon()
    if w.punct or w.text in stop or w.text in ("and", "or", "then", "but", "until", "till", "please", "so", "because",
                                                "if", "when", "once", "while", "whatever", "whichever", "you", "which",
                                                "that", "where", "who", "as", "than", "since", "after", "before",
                                                "should", "would", "will", "is", "are", "be", "do", "does", "can",
                                                "could", "must", "may", "might", "shall", "was", "were", "i", "we",
                                                "somewhere", "anywhere", "everywhere", "nearby", "here", "there",
                                                "outside", "please", "now"):
        return True
    if w.number is not None:
        return True
    if w.text == "of":
        return False  # "3 blocks of sand", "a bucket of water": decided after
    return lex.relation(words, j) is not None


def _measured(words: list[Word], j: int, phrase: Phrase, stop: frozenset[str]) -> int:
    """ "3 blocks of sand", "pieces of wood", "a bucket of water": the thing is what comes after "of",
    unless the words before it are a name of their own ("a bucket of water" is a water bucket)."""
    if not (j < len(words) and words[j].text == "of" and phrase.naming):
        return j
    measure = set(lexicon().measure_words)
    if not all(set(w.forms()) & measure for w in phrase.naming):
        joined = "_".join([*(w.text for w in phrase.naming), "of", *(w.text for w in words[j + 1:j + 2])])
        if j + 1 < len(words) and today(joined) is not None:  # bucket of water, bottle o' enchanting
            phrase.naming = [*phrase.naming, words[j], words[j + 1]]
            return j + 2
        return j
    inner, k = noun_phrase(words, j + 1, stop)
    if inner.empty:
        return j
    phrase.naming = inner.naming
    phrase.pronoun = inner.pronoun
    phrase.definite = phrase.definite or inner.definite
    phrase.carried = phrase.carried or inner.carried
    phrase.every = phrase.every or inner.every
    phrase.of = inner.of
    return k


def _carried(words: list[Word], j: int, phrase: Phrase) -> int:
    """ "(that) you are carrying", "you've got", "in your inventory" after the thing: all of it carried."""
    k = j + 1 if j < len(words) and words[j].text in ("that", "which") else j
    end = phrase_at(words, k, list(CARRIED))
    if end is None:
        return j
    phrase.carried = True
    while end < len(words) and words[end].text in ("now", "already", "right", "with", "on", "there"):
        end += 1
    return end


def _after_is(words: list[Word], j: int) -> int:
    """Past "is"/"'s" in "what is in the chest"."""
    return j + 1 if j < len(words) and words[j].text in ("is", "are", "was", "there", "that", "you") else j


def _contained(words: list[Word], j: int, phrase: Phrase, stop: frozenset[str]) -> int:
    """ "everything in it", "what is in the chest": the container it is in."""
    k = j
    while k < len(words) and words[k].text in ("is", "are", "was", "there", "that"):
        k += 1
    end = phrase_at(words, k, list(IN))
    if end is None:
        return j
    inner, after = noun_phrase(words, end, stop)
    if inner.empty:
        return j
    phrase.of = inner
    return after


def resolve(naming: list[Word], role: Role, mc_version: str | None = None) -> tuple[Named | None, list[str]]:
    """What the naming words are in the game, for a thing of `role` (an item to carry, a block to go
    to or stand on, a block to dig, a container), and the words no name or harmless adjective covers;
    None when they name nothing, or name more than one thing."""
    found = names_in(naming, role, mc_version)
    covered = {i for _, start, end in found for i in range(start, end)}
    unknown = [w.written for i, w in enumerate(naming) if i not in covered and not _harmless(w)]
    distinct = list(dict.fromkeys(named for named, _, _ in found))
    if len(distinct) != 1 or unknown:
        return None, unknown or ([w.written for w in naming] if not distinct else [])
    return distinct[0], []


def names_in(naming: list[Word], role: Role, mc_version: str | None = None) -> list[tuple[Named, int, int]]:
    """Every game name in the words, left to right, longest first, with the positions it covers."""
    found: list[tuple[Named, int, int]] = []
    i = 0
    while i < len(naming):
        hit = _tree_at(naming, i, mc_version) or _name_at(naming, i, role, mc_version) or \
            _family_at(naming, i, role, mc_version)
        if hit is None:
            i += 1
            continue
        named, end = hit
        if _built_of(naming, end, role):  # "the stone platform": stone
            end += 1
        found.append((named, i, end))
        i = end
    return found


def _built_of(naming: list[Word], end: int, role: Role) -> bool:
    """Whether the word after a block's name is a structure made of it ("the stone platform", "the
    dirt tower"): where a block is wanted, the structure's block is what is meant."""
    return role in ("block", "dig", "any") and end < len(naming) and naming[end].text in lexicon().structure_words


def _harmless(word: Word) -> bool:
    """Words beside a thing's name that change nothing the world judges: "big", "blocks of",
    "real quick"."""
    lex = lexicon()
    return bool(set(word.forms()) & {*lex.adjectives, *lex.measure_words, *lex.fillers, "kind", "type", "sort",
                                     "variety"})


def _candidates(parts: list[Word]) -> list[str]:
    """Ids the words could be once joined: the last word in each of its forms."""
    head = "_".join(w.text for w in parts[:-1])
    return [f"{head}_{form}" if head else form for form in parts[-1].forms()]


def _name_at(naming: list[Word], i: int, role: Role, mc_version: str | None) -> tuple[Named, int] | None:
    """The longest id starting at naming[i] that fits the role."""
    if naming[i].text in aliases().materials and _family_at(naming, i, role, mc_version) is not None and \
            not any(today(c, mc_version) for c in _candidates(naming[i:i + 2])):
        return None  # "gold pickaxe": a material of a family, said before it (_family_at)
    for n in range(min(MAX_NAME_WORDS, len(naming) - i), 0, -1):
        for candidate in _candidates(naming[i:i + n]):
            if candidate not in game_names(mc_version) and (family_suffix(candidate) or n == 1 and any(
                    family_suffix(f) for f in naming[i].forms())):
                continue  # "wool", "planks", "fence gate": a family, not the legacy id of one member
            name = _fitted(candidate, role, mc_version)
            if name is not None:
                return Named((name,)), i + n
    return None


def _fitted(word: str, role: Role, mc_version: str | None) -> str | None:
    """The id a word is for a role: "gold" by a block to go to is the gold block, by digging the
    ore; "iron" to carry is an ingot (aliases' words); else the id the word is."""
    blocks, items = block_names(mc_version), item_names(mc_version)
    if role == "dig" and f"{word}_ore" in blocks and word not in blocks:
        return f"{word}_ore"
    if role in ("block", "dig", "container") and word not in blocks and f"{word}_block" in blocks:
        return f"{word}_block"
    name = today(word, mc_version)
    if name is None or name in NOTHING:
        return None
    if role == "item" and name not in items:
        return None
    if role in ("block", "dig", "container") and name not in blocks:
        return None
    return name


def _tree_at(naming: list[Word], i: int, mc_version: str | None) -> tuple[Named, int] | None:
    """ "oak wood", "a birch tree", "dark oak logs": that kind's log; and a tree by its kind alone
    ("that oak", "the birches"), where the kind's word names nothing else."""
    for n in (3, 2):
        parts = naming[i:i + n]
        if len(parts) == n and parts[-1].text in TREE_WORDS:
            log = "_".join(w.text for w in parts[:-1]) + "_log"
            if log in block_names(mc_version):
                return Named((log,)), i + n
    for n in (2, 1):
        parts = naming[i:i + n]
        for form in (parts[-1].forms() if len(parts) == n and i + n == len(naming) else ()):
            kind = "_".join([*(w.text for w in parts[:-1]), form])
            if f"{kind}_log" in block_names(mc_version) and today(kind, mc_version) is None:
                return Named((f"{kind}_log",)), i + n
    return None


def _family_at(naming: list[Word], i: int, role: Role, mc_version: str | None) -> tuple[Named, int] | None:
    """A word for a kind ("wool", "planks", "a fence gate"), with a material before it when one is
    said ("a wooden fence", "gold pickaxe"); its ids the role allows, in the order they are offered."""
    names = item_names(mc_version) if role == "item" else game_names(mc_version) if role == "any" else \
        block_names(mc_version)
    material = naming[i].text if naming[i].text in aliases().materials and i + 1 < len(naming) else None
    for start, allowed in ([(i + 1, material)] if material else []) + [(i, None)]:
        for n in (2, 1):
            parts = naming[start:start + n]
            suffix = next((family_suffix(c) for c in _candidates(parts) if family_suffix(c)), None) \
                if len(parts) == n else None
            found = members(suffix, names, allowed) if suffix else ()
            if found:
                return Named(found, kind=" ".join(w.text for w in naming[i:start + n])), start + n
    return None
