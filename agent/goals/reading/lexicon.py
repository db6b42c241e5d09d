"""The goal reader's lexicon (lexicon.yaml), typed, with the lookups the reader makes: which
intent a verb has, which phrase opens a clause without asking anything, what a preposition says,
how many a quantity word is. Phrases are matched on whole words."""

from __future__ import annotations

from functools import cache, cached_property
from pathlib import Path

from pydantic import Field

from agent.config.layers import StrictModel, load_model_file
from agent.goals.reading.words import Word

LEXICON_FILE = Path(__file__).with_name("lexicon.yaml")


class Determiners(StrictModel):
    definite: list[str]
    indefinite: list[str]
    carried: list[str]
    speaker: list[str]


class Lexicon(StrictModel):
    """lexicon.yaml: each key's meaning is said there."""

    verbs: dict[str, list[str]] = Field(description="an intent -> its verbs' lemmas")
    phrasal: dict[str, str] = Field(description="words that together are a verb -> the verb they act as")
    dig_verbs: list[str]
    smelt_verbs: list[str]
    frames: list[str]
    closers: list[str]
    fillers: list[str]
    adjectives: list[str]
    determiners: Determiners
    quantities: dict[str, int]
    all_words: list[str]
    measure_words: list[str]
    prepositions: dict[str, list[str]]
    particles: list[str]
    statements: list[str]
    questions: list[str]
    holes: list[str]
    enclosures: list[str]
    situation_words: list[str]
    biomes: list[str]
    down_words: list[str]
    sky_phrases: list[str]
    start_phrases: list[str]
    ground_phrases: list[str]
    higher_words: list[str]
    player_pronouns: list[str]
    products: dict[str, dict[str, str]]
    creatures: list[str]
    structure_words: list[str]

    def intents(self, word: Word) -> list[str]:
        """The intents a word may have as a verb, by its lemmas, in the file's order."""
        forms = set(word.forms())
        return [intent for intent, verbs in self.verbs.items() if forms & set(verbs)]

    def verb_lemma(self, word: Word) -> str:
        """The lemma under which the lexicon knows the verb ("dug" -> dig), else the word."""
        return next((f for f in (word.text, *sorted(word.verbs)) if f in self.all_verbs), word.text)

    def relation(self, words: list[Word], i: int) -> tuple[str, int] | None:
        """The preposition at words[i] (longest first) and what it says (into, from, means, near,
        onto, ...), with the position after it; None when none starts there."""
        return longest(words, i, self.relations)

    @cached_property
    def relations(self) -> dict[str, str]:
        """Each preposition's words -> what it says (into, from, ...), built once: read per word."""
        return {p: rel for rel, ps in self.prepositions.items() for p in ps}

    @cached_property
    def all_verbs(self) -> frozenset[str]:
        return frozenset(v for verbs in self.verbs.values() for v in verbs)


@cache
def lexicon() -> Lexicon:
    return load_model_file(Lexicon, LEXICON_FILE)


def longest(words: list[Word], i: int, phrases: dict[str, str]) -> tuple[str, int] | None:
    """The longest phrase of `phrases` (words joined by spaces) starting at words[i]: its value and
    the position after it; None when none does."""
    longest_words = max((len(p.split()) for p in phrases), default=0)
    for n in range(min(longest_words, len(words) - i), 0, -1):
        said = " ".join(w.text for w in words[i:i + n])
        if said in phrases:
            return phrases[said], i + n
    return None


def phrase_at(words: list[Word], i: int, phrases: list[str]) -> int | None:
    """The position after the longest of `phrases` starting at words[i], else None."""
    found = longest(words, i, {p: p for p in phrases})
    return None if found is None else found[1]


def contains(words: list[Word], phrases: list[str]) -> bool:
    """Whether any of `phrases` appears in the words."""
    return any(phrase_at(words, i, phrases) is not None for i in range(len(words)))
