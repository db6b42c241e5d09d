"""A goal's text as words the reader can look up: lower case, contractions spelled out ("you're"
-> "you are", "gimme" -> "give me"), numbers as numbers whatever way they are written ("3",
"three", "twenty-five", "3x", "a couple of", "a dozen", "a stack of"), each word with its
lemmas (lemminflect: "chopped" -> chop, "leaves" -> leaf, "dug" -> dig), and the case a word
was written in kept for players' names.

Why lemminflect: it carries its own dictionary (no download at run time, which cannot work here)
and gives every lemma of a word for each part of speech, which is what a lookup of verbs and
game names wants; a tagger that picks one part of speech would be wrong on Minecraft's nouns
that are also verbs ("log", "stone", "place", "stick") as often as right (docs/reading.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from lemminflect import getAllLemmas, getAllLemmasOOV

CONTRACTIONS = {
    "you're": "you are", "youre": "you are", "i'm": "i am", "im": "i am", "i'd": "i would", "you'd": "you would",
    "we'd": "we would", "it's": "it is", "there's": "there is", "theres": "there is", "that's": "that is",
    "what's": "what is", "here's": "here is", "let's": "let us", "lets": "let us", "you've": "you have",
    "i've": "i have", "ive": "i have", "youve": "you have", "weve": "we have", "theyve": "they have",
    "youre": "you are", "we've": "we have", "we're": "we are", "they're": "they are", "i'll": "i will",
    "you'll": "you will", "gimme": "give me", "wanna": "want to", "gonna": "going to", "gotta": "got to",
    "don't": "do not", "dont": "do not", "doesn't": "does not", "can't": "can not", "cant": "can not",
    "cannot": "can not", "won't": "will not", "isn't": "is not", "aren't": "are not", "didn't": "did not",
    "shouldn't": "should not", "couldn't": "could not", "wouldn't": "would not", "y'all": "you",
    "pls": "please", "plz": "please", "thx": "thanks", "u": "you", "ur": "your", "r": "are",
}
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}
# Phrases that are a number, read as that number before anything else.
NUMBER_PHRASES = {
    "a couple of": 2, "a couple": 2, "couple of": 2, "a pair of": 2, "a few": 3, "a handful of": 5,
    "half a dozen": 6, "a dozen": 12, "half a stack of": 32, "half a stack": 32, "a half stack of": 32,
    "a full stack of": 64, "a stack of": 64, "a stack": 64, "one stack of": 64, "two stacks of": 128,
    "a full stack": 64,
}
STACK = 64
_PHRASE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, NUMBER_PHRASES), key=len, reverse=True)) + r")\b")
_TENS = "|".join(w for w, n in NUMBER_WORDS.items() if n >= 20 and n % 10 == 0 and n < 100)
_UNITS = "|".join(w for w, n in NUMBER_WORDS.items() if 1 <= n <= 9)
_COMPOUND = re.compile(rf"\b({_TENS})[- ]({_UNITS})\b")
# Words: numbers (signed, decimal, "3x"), ids with underscores, words with an apostrophe; and the
# punctuation that parts clauses.
_TOKEN = re.compile(r"x?-?\d+(?:\.\d+)?x?|[a-z][a-z0-9_]*(?:'[a-z]+)?|[.,;:!?()]")
_POSSESSIVE = re.compile(r"\b(\w+)'s\b")


@dataclass(frozen=True)
class Word:
    """One word of a goal: as written (case kept), lower case, its lemmas by part of speech, and
    the number it is when it is one."""

    written: str
    text: str
    lemmas: frozenset[str] = field(default_factory=frozenset)
    verbs: frozenset[str] = field(default_factory=frozenset)
    nouns: frozenset[str] = field(default_factory=frozenset)
    number: float | None = None

    @property
    def punct(self) -> bool:
        return self.text in ".,;:!?()"

    def forms(self) -> tuple[str, ...]:
        """The word and its lemmas, the word first: how a name or a verb may be looked up."""
        return (self.text, *sorted(self.lemmas - {self.text}))


def words_of(text: str) -> list[Word]:
    """The goal's words in order (see the module's doc)."""
    spaced = _POSSESSIVE.sub(_unpossessed, text.replace("’", "'"))
    out: list[Word] = []
    for raw in _TOKEN.finditer(_numbers_spelled(spaced.lower())):
        token = raw[0]
        written = _written_in(spaced, raw.start(), token)
        for part in CONTRACTIONS.get(token, token).split():
            out.append(word(part, written if part == token else part))
    return out


def _unpossessed(found: re.Match[str]) -> str:
    """ "alex's" -> "alex"; "there's", "it's" are contractions, spelled out later."""
    return found[0] if found[0].lower() in CONTRACTIONS else found[1]


def _numbers_spelled(text: str) -> str:
    """Number phrases and compound number words as digits: "a couple of" -> "2 ", "twenty-five" -> "25"."""
    text = _PHRASE.sub(lambda m: f"{NUMBER_PHRASES[m[1]]} ", text)
    return _COMPOUND.sub(lambda m: str(NUMBER_WORDS[m[1]] + NUMBER_WORDS[m[2]]), text)


def _written_in(original: str, start: int, token: str) -> str:
    """The token as the user wrote it (case kept) where the lower-cased text lines up with it."""
    piece = original[start:start + len(token)]
    return piece if piece.lower() == token else token


@cache
def word(text: str, written: str | None = None) -> Word:
    """One word with its lemmas and number."""
    number = _number(text)
    if number is not None or not text[0].isalpha():
        return Word(written or text, text, number=number)
    found = getAllLemmas(text)
    nouns = set(found.get("NOUN", ())) or set(getAllLemmasOOV(text, "NOUN").get("NOUN", ()))
    verbs = set(found.get("VERB", ())) | set(found.get("AUX", ()))
    lemmas = frozenset({text, *nouns, *verbs, *found.get("ADJ", ()), *found.get("ADV", ())})
    return Word(written or text, text, lemmas, frozenset(verbs), frozenset(nouns), None)


def _number(text: str) -> float | None:
    if text in NUMBER_WORDS:
        return float(NUMBER_WORDS[text])
    bare = text.strip("x") if text not in ("x", "xx") else text
    try:
        return float(bare)
    except ValueError:
        return None
