"""One clause read for what it asks: its verb and the intent the lexicon gives it, the particles and
prepositions that change that intent ("get" + "onto" is to stand on a thing, "take" + "out of" to
take from a chest, "go" + "back" to return), the things it is about (noun phrases, nouns.py), the
places it names (coordinates, where the bot started, open sky, a height above the ground), and the
words nothing read. A clause that states ("you are carrying dirt", "there is a chest with apples in
it") or asks a question asks for nothing, though it names what "them" means next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agent.goals.reading.lexicon import lexicon, longest, phrase_at
from agent.goals.reading.nouns import Phrase, noun_phrase
from agent.goals.reading.words import Word, word
from agent.mc.aliases import today

Mood = Literal["ask", "statement", "question", "negated"]
# Things between a verb and its object that say who it is for: "get me", "make yourself".
RECIPIENTS = frozenset({"me", "us", "yourself", "myself", "ourselves", "him", "her", "them", "it"})
# Words that open a clause within the clause that asks nothing: "follow alex as he walks away".
SUBORDINATE = frozenset({"as", "while", "because", "since", "whenever", "wherever", "cause", "cuz", "coz"})
# Words that open a closing restatement of the thing: "three pieces of wood, whatever tree is handy".
QUALIFIERS = frozenset({"whatever", "whichever", "any", "no", "not"})
COPULAS = frozenset({"is", "are", "was", "were"})
# Words that name a height the game counts: "climb to y 80", "y=70", "y level 12".
LEVEL_WORDS = ("y", "y level", "y-level", "level", "height", "a height of", "an altitude of", "altitude", "y =")


@dataclass
class Height:
    """A height asked: `blocks` above where the bot starts, above the ground around, or the game's y."""

    blocks: float
    above: Literal["start", "ground", "level"]


@dataclass
class Ask:
    """A clause as read (see the module's doc)."""

    words: list[Word]
    mood: Mood = "ask"
    verb: str | None = None
    intents: list[str] = field(default_factory=list)
    particles: list[str] = field(default_factory=list)
    objects: list[Phrase] = field(default_factory=list)
    preps: list[tuple[str, Phrase]] = field(default_factory=list)
    recipient: str | None = None
    then_verb: str | None = None  # "smelt to obtain stone": the verb the first one serves
    height: Height | None = None
    coords: tuple[float, float, float] | None = None
    sky: bool = False
    start: bool = False  # "back here", "to where you started"
    wanting: bool = False  # the speaker says they want it: "I need", "we could use"
    unread: list[Word] = field(default_factory=list)

    @property
    def says(self) -> str:
        return " ".join(w.written for w in self.words)

    def prep(self, relation: str) -> Phrase | None:
        """The phrase after the first preposition of that relation (into, from, means, near, onto)."""
        return next((p for r, p in self.preps if r == relation), None)


def read_clause(words: list[Word]) -> Ask:
    """The clause's ask (see the module's doc)."""
    lex = lexicon()
    ask = Ask(words=words)
    words = _unclosed(_unaddressed(words))
    i = _frames(words, 0)
    wants = _subject(words, i)
    mood, i = ("ask", i) if wants > i else _mood(words, i)  # "we are going to need 8 sticks" asks
    ask.mood = mood
    if mood in ("statement", "question"):  # what is, not what is asked: only the things it names
        _rest(words, i, ask)
        return ask
    j = _subject(words, i)
    ask.wanting = j > i  # "I could use some sand": a want, not a means
    i = j
    verb_at = _verb_at(words, i)
    if verb_at is None:
        _rest(words, i, ask)  # "3 oak logs please": the things alone
        return ask
    _rest(words[:verb_at], i, ask)  # "from the chest, take 3 apples": what comes before the verb
    phrasal = longest(words, verb_at, lex.phrasal)  # "make your way to", "look for"
    verb = word(phrasal[0]) if phrasal else words[verb_at]
    ask.verb = lex.verb_lemma(verb)
    ask.intents = lex.intents(verb)
    j = _particles(words, phrasal[1] if phrasal else verb_at + 1, ask)
    j = _purpose(words, j, ask)
    _rest(words, j, ask)
    return ask


def _unaddressed(words: list[Word]) -> list[Word]:
    """The clause without the name it ends by addressing ("come with me, Steve"): a comma, then one
    word written with a capital that is no game name."""
    if len(words) >= 3 and words[-2].text == "," and words[-1].written[:1].isupper() and \
            today(words[-1].text) is None:
        return words[:-2]
    return words


def _unclosed(words: list[Word]) -> list[Word]:
    """The clause without the words that close it and ask nothing ("would be nice", "real quick",
    "if you can"), as many as there are."""
    closers = lexicon().closers
    qualifier = next((i for i in range(1, len(words)) if words[i - 1].text == "," and words[i].text in QUALIFIERS), None)
    words = words[:qualifier - 1] if qualifier is not None else words  # ", whatever tree is handy"
    while True:
        cut = next((i for i in range(len(words)) if phrase_at(words, i, closers) == len(words)), None)
        if cut is None or cut == 0:
            return words
        words = words[:cut]


def _frames(words: list[Word], i: int) -> int:
    """Past the words that open a clause and ask nothing ("could you please", "I want you to")."""
    frames = lexicon().frames
    while i < len(words):
        end = phrase_at(words, i, frames)
        if end is None:
            return i
        i = end
    return i


def _mood(words: list[Word], i: int) -> tuple[Mood, int]:
    lex = lexicon()
    if i < len(words) and words[i].text in ("do", "does", "did") and i + 1 < len(words) and \
            words[i + 1].text in ("not", "never"):
        return "negated", i + 2
    if i < len(words) and words[i].text in ("never", "not", "no", "avoid"):
        return "negated", i + (0 if words[i].text == "avoid" else 1)
    end = phrase_at(words, i, lex.questions)
    if end is not None:
        return "question", _past_subject(words, end)
    end = phrase_at(words, i, lex.statements)
    if end is not None:
        return "statement", end
    if i + 1 < len(words) and words[i].text in ("you", "your") and phrase_at(words, i + 1, lex.situation_words):
        return "statement", i + 1  # "your stuck in a hole" ("ur", "you're" typed short): where the bot is
    copula = next((j for j in range(i, min(i + 4, len(words))) if words[j].text in COPULAS), None)
    if copula is not None and not any(lex.intents(w) for w in words[i:copula]):
        return "statement", copula + 1  # "alex is about to head off", "the chest is over there"
    return "ask", i


def _past_subject(words: list[Word], j: int) -> int:
    """Past "you have", "you got" after a question's opening ("do you have any logs")."""
    return phrase_at(words, j, ["you have", "you got", "you carry", "you have got", "have", "got", "carry"]) or j


def _subject(words: list[Word], i: int) -> int:
    """Past "I" or "we" before a verb of wanting ("I need some sand", "we would like bread")."""
    if i < len(words) and words[i].text in ("i", "we"):
        j = i + 1
        while j < len(words) and words[j].text in ("would", "really", "also", "still", "just", "do", "kinda", "could",
                                                    "are", "am", "going", "to", "will", "definitely", "probably"):
            j += 1
        if j < len(words) and "want" in lexicon().intents(words[j]):
            return j
    return i


def _verb_at(words: list[Word], i: int) -> int | None:
    """Where the clause's verb is: the first lexicon verb; after "go"/"come" (+ "and") another
    verb is the one that asks ("go get", "come and help", "go stand by")."""
    lex = lexicon()
    for j in range(i, len(words)):
        if longest(words, j, lex.phrasal) is not None:
            return j
        if words[j].punct or not lex.intents(words[j]) or (j > i and _thing_word_before(words[j - 1], words[j])) \
                or _plural_noun(words[j]) or is_preposition(words[j]):
            continue
        k = j + 1
        while k < len(words) and words[k].text in ("and", "over", "ahead", "on", "there"):
            k += 1
        if words[j].text in ("go", "come", "run", "hurry") and k < len(words) and lex.intents(words[k]) \
                and words[k].text in lex.all_verbs and words[k].text not in ("over", "back"):
            return k
        return j
    return None


def _thing_word_before(before: Word, verb: Word) -> bool:
    """Whether the word before a verb's form makes it a thing ("some logs", "3 logs", "the place",
    "oak logs")."""
    dets = lexicon().determiners
    if any(today(f"{before.text}_{form}") for form in verb.forms()):
        return True
    return before.number is not None or before.text in {*dets.definite, *dets.indefinite, *dets.carried,
                                                        *dets.speaker, *lexicon().quantities, *lexicon().adjectives}


def is_preposition(word: Word) -> bool:
    """ "given", "using": forms of verbs that open a phrase of means, never the clause's verb."""
    return word.text in lexicon().prepositions["means"] and word.text not in lexicon().all_verbs


def _plural_noun(word: Word) -> bool:
    """ "logs", "sticks": a form ending in -s that is no verb's own form is a thing, not what to do
    (an ask's verb is said in its base form, or in the past after "once you have")."""
    return word.text.endswith("s") and word.text not in lexicon().all_verbs and bool(word.nouns - {word.text})


def _particles(words: list[Word], j: int, ask: Ask) -> int:
    """Particles after the verb ("come back", "pick up", "climb out"), not those that begin a
    preposition ("out of", "up onto", "back to")."""
    lex = lexicon()
    while j < len(words):
        w = words[j]
        if w.text in RECIPIENTS and ask.recipient is None and j + 1 < len(words) and (
                _thing_follows(words, j + 1) or words[j + 1].text in ("up", "out", "down", "back", "away")):
            ask.recipient = w.text  # "get me 3 logs", "make yourself a table"
            j += 1
            continue
        if w.text in lex.particles and not _preposition_starts(words, j):
            ask.particles.append(w.text)
            j += 1
            continue
        if w.text in ("right", "just", "directly", "straight", "all", "the", "way") and (
                _preposition_starts(words, j + 1) or j + 1 < len(words) and words[j + 1].text in lex.particles):
            j += 1
            continue
        return j
    return j


def _thing_follows(words: list[Word], j: int) -> bool:
    w = words[j]
    return not w.punct and (w.number is not None or lexicon().relation(words, j) is None)


def _preposition_starts(words: list[Word], j: int) -> bool:
    """A preposition of more than one word starts at words[j] ("out of", "up onto"), or a
    one-word one followed by a thing ("on the block")."""
    found = lexicon().relation(words, j)
    if found is None:
        return False
    _, end = found
    return end - j > 1 or (end < len(words) and words[end].text not in ("and", "then", ",") and
                           words[j].text not in ("up", "down", "back", "out", "over", "away", "around", "along"))


def _purpose(words: list[Word], j: int, ask: Ask) -> int:
    """ "smelt to obtain stone", "craft to obtain a torch": the verb after "to" is what is asked,
    the first the way to it."""
    lex = lexicon()
    if not (j + 1 < len(words) and words[j].text in ("to", "and") and words[j + 1].text in lex.all_verbs and
            lex.intents(words[j + 1]) and not _names_thing(words[j + 1])):
        return j
    if words[j].text == "to" or set(ask.intents) <= {"go", "seek", "stand"}:
        ask.then_verb = lex.verb_lemma(words[j + 1])  # "smelt to obtain", "find and chop the tree"
    return j + 2  # "craft and use a golden shovel": the first verb asks


def _names_thing(word: Word) -> bool:
    return today(word.text) is not None and word.text not in ("get", "make", "obtain", "find")


def _rest(words: list[Word], j: int, ask: Ask) -> None:
    """The things, places and heights after the verb, in order; what none of them reads is unread."""
    lex = lexicon()
    fillers = set(lex.fillers)
    while j < len(words):
        w = words[j]
        if w.punct or w.text in ("and", "or", ","):
            j += 1
            continue
        if w.text in SUBORDINATE:  # "as he walks away", "because I need it": no ask
            ask.unread.extend(words[j:])
            return
        nxt = (_height(words, j, ask) or _coords(words, j, ask) or _sky(words, j, ask) or _start(words, j, ask) or
               _until(words, j, ask) or _preposition(words, j, ask) or _thing(words, j, ask))
        if nxt is not None:
            j = nxt
            continue
        if w.text not in fillers and w.text not in lex.particles:
            ask.unread.append(w)
        j += 1


def _thing(words: list[Word], j: int, ask: Ask) -> int | None:
    phrase, end = noun_phrase(words, j)
    if end == j or phrase.empty and phrase.count is None:
        return None
    ask.objects.append(phrase)
    return end


def _preposition(words: list[Word], j: int, ask: Ask) -> int | None:
    if j + 1 < len(words) and words[j].text == "at" and words[j + 1].text in ("least", "most"):
        return None  # "at least 8": a count
    found = lexicon().relation(words, j)
    if found is None:
        return None
    relation, end = found
    if words[j].text == "in" and (biome := phrase_at(words, _past_article(words, end), lexicon().biomes)):
        return biome  # "obtain 8 apple in plains": where, the world's, not a goal
    end = _sky(words, end, ask) or _start(words, end, ask) or _coords(words, end, ask) or _height(words, end, ask) \
        or end
    if ask.sky or ask.start or ask.coords or ask.height:
        return end
    if end < len(words) and words[end].text in ("here", "there"):  # "out of here"
        ask.preps.append((relation, Phrase(words=words[end:end + 1], naming=words[end:end + 1])))
        return end + 1
    phrase, after = noun_phrase(words, end)
    if after == end:
        return end
    ask.preps.append((relation, phrase))
    while after + 1 < len(words) and words[after].text == "and" and words[after + 1].text not in lexicon().all_verbs:
        more, end = noun_phrase(words, after + 1)  # "using 2 diamonds and a stick": both the means
        if end == after + 1 or more.empty:
            break
        ask.preps.append((relation, more))
        after = end
    return after


def _past_article(words: list[Word], j: int) -> int:
    return j + 1 if j < len(words) and words[j].text in ("the", "a", "an") else j


def _sky(words: list[Word], j: int, ask: Ask) -> int | None:
    """ "open sky", "somewhere you can see the sky", "the surface": a place under the open sky."""
    if j >= len(words):
        return None
    k = j
    while k < len(words) and words[k].text in ("somewhere", "a", "place", "where", "you", "can", "see", "to",
                                                "spot", "get", "into", "in", "under", "some"):
        k += 1
    end = phrase_at(words, k, lexicon().sky_phrases)
    if end is None:
        return None
    ask.sky = True
    return end


def _start(words: list[Word], j: int, ask: Ask) -> int | None:
    """ "here", "where you started", "this spot": where the bot is when the run begins."""
    if "back" not in ask.particles and ask.verb not in ("return",) and not (j > 0 and words[j - 1].text == "back"):
        return None
    end = phrase_at(words, j, lexicon().start_phrases)
    if end is None:
        return None
    ask.start = True
    return end


def _coords(words: list[Word], j: int, ask: Ask) -> int | None:
    """Three numbers in a row, with x/y/z labels or not: "10 64 -5", "(12, 65, -8)", "x=10 y=64 z=-5"."""
    values: list[float] = []
    k = j
    while k < len(words) and len(values) < 3:
        w = words[k]
        if w.number is not None:
            values.append(w.number)
        elif not (w.punct or w.text in ("x", "y", "z", "at", "coordinates", "coords", "position", "=")):
            break
        k += 1
    if len(values) < 3 or not any(words[m].number is not None for m in range(j, min(j + 2, len(words)))):
        return None
    ask.coords = (values[0], values[1], values[2])
    while k < len(words) and words[k].punct and words[k].text == ")":
        k += 1
    return k


def _height(words: list[Word], j: int, ask: Ask) -> int | None:
    """A height: "3 blocks higher", "4 blocks off the ground", "to y 80"."""
    if j >= len(words):
        return None
    lex = lexicon()
    level = phrase_at(words, j, list(LEVEL_WORDS))
    if level is not None and level < len(words) and words[level].number is not None and \
            (words[j].text != "level" or (j > 0 and words[j - 1].text in ("y", "to"))):
        ask.height = Height(words[level].number, "level")
        return level + 1
    if words[j].number is None or _is_count_of_thing(words, j):
        return None
    k = j + 1
    while k < len(words) and words[k].text in ("block", "blocks", "more", "full", "whole"):
        k += 1
    ground = phrase_at(words, k, lex.ground_phrases)
    if ground is not None:
        ask.height = Height(words[j].number, "ground")
        return ground
    higher = phrase_at(words, k, lex.higher_words)
    if higher is None and k > j + 1 and (ask.verb in lex.verbs["climb"] or "up" in ask.particles):
        ask.height = Height(words[j].number, "start")  # "climb up 4 blocks"
        return k
    if higher is None or (k == j + 1 and ask.verb not in lex.verbs["climb"] and words[k].text not in ("higher",)):
        return None
    ask.height = Height(words[j].number, "start")
    end = phrase_at(words, higher, lex.ground_phrases)
    if end is not None:
        ask.height.above = "ground"
        return end
    return _than_now(words, higher)


def _is_count_of_thing(words: list[Word], j: int) -> bool:
    """ "4 blocks of dirt": a count of a thing, not a height."""
    k = j + 1
    return k + 1 < len(words) and words[k].text in ("block", "blocks") and words[k + 1].text == "of"


def _than_now(words: list[Word], j: int) -> int:
    """Past "than you are now", "than now", "than where you are", "from where you are"."""
    if j < len(words) and words[j].text in ("than", "from"):
        k = j + 1
        while k < len(words) and words[k].text in ("you", "are", "now", "where", "were", "at", "the", "moment",
                                                    "currently", "right", "here", "this", "point", "start"):
            k += 1
        return k
    return j


def _until(words: list[Word], j: int, ask: Ask) -> int | None:
    """ "until you're 3 blocks higher": the height read from the words after it."""
    if words[j].text not in ("until", "till", "til"):
        return None
    k = j + 1
    while k < len(words) and words[k].text in ("you", "are", "is", "it", "at", "least", "reach", "get", "be", "stand",
                                                "standing", "have", "risen", "climbed", "gone", "up", "about"):
        k += 1
    end = _height(words, k, ask)
    return end if end is not None else None
