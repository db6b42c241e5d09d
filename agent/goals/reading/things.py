"""A noun phrase as the thing a clause is about: its names for the role the intent gives it (an item
to carry, a block to go to, a block to dig), how many (said, all carried, every log of a tree, all a
chest holds), a player it names, or why it names nothing."""

from __future__ import annotations

from dataclasses import replace

from lemminflect import getAllLemmas

from agent.goals.reading.asks import Ask
from agent.goals.reading.lexicon import lexicon
from agent.goals.reading.model import CONTAINERS, TREE_HEADS, WORKSTATIONS, Context, Thing
from agent.goals.reading.nouns import Named, Phrase, Role, resolve
from agent.goals.reading.words import words_of
from agent.goals.understanding import Unread
from agent.mc.gamedata import item_names, mined, smelting
from agent.mc.names import MAX_ITEM_COUNT

USERNAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def thing_of(phrase: Phrase, role: Role, context: Context, mc_version: str | None) -> Thing | None:
    """What a phrase is, for a role, with its count: a pronoun is the thing said before (with a
    count of its own when it has one); "all the X you are carrying" is all carried."""
    if phrase.pronoun is not None and not phrase.naming:
        if len(context.things) != 1:
            return None
        before = context.things[0]
        again = resolve(before.naming, role, mc_version)[0] if before.naming else None
        before = replace(before, named=again) if again is not None else before
        if phrase.count is not None:
            return replace(before, count=phrase.count, count_of=None, said=True)
        return before
    named, _ = resolve(phrase.naming, role, mc_version)
    if named is None or qualified_unknown(phrase, mc_version):
        return None
    if phrase.carried and phrase.count is None:
        return Thing(named, 1, "carried", naming=phrase.naming)
    if phrase.count is not None:
        return Thing(named, min(phrase.count, MAX_ITEM_COUNT), said=True, naming=phrase.naming)
    return Thing(named, naming=phrase.naming, definite=phrase.definite and not phrase.every)


def qualified_unknown(phrase: Phrase, mc_version: str | None) -> bool:
    """Whether "of X" after a thing names what no name covers ("a potion of healing"): the thing
    is then another than its name says, and not read."""
    of = phrase.of
    return of is not None and bool(of.naming) and of.pronoun is None and \
        resolve(of.naming, "any", mc_version)[0] is None and not any(w.text in TREE_HEADS for w in of.naming)


def unknown(phrase: Phrase, role: Role, mc_version: str | None) -> Unread:
    """Why a phrase names nothing: the words no name covers, or two things where one was meant."""
    named, uncovered = resolve(phrase.naming, role, mc_version)
    if not phrase.naming and phrase.pronoun is None:
        return Unread(words=phrase.says, why="of what?")
    if named is not None and qualified_unknown(phrase, mc_version):
        return Unread(words=phrase.says, why=f"{named.name} of what? no such thing in the game: "
                                             f"{' '.join(w.written for w in phrase.of.naming)}")
    if uncovered:
        return Unread(words=phrase.says, why=f"no such thing in the game: {' '.join(uncovered)}")
    if phrase.pronoun is not None:
        return Unread(words=phrase.says, why="it could be more than one thing said before, or nothing")
    return Unread(words=phrase.says, why="more than one thing")


def player_of(phrase: Phrase, following: bool = False) -> str | None:
    """The player a phrase names: a word no game name or lexicon word is, written with no
    determiner ("alex", "Steve_2"), or a player pronoun ("me", "him"). Unless `following` (whom to
    follow can only be a player), an English word is a name only written as one ("Bob", not "bob")."""
    if phrase.pronoun in ("them",) and not phrase.naming:
        return "them"
    named = next((phrase.naming[i + 1] for i, w in enumerate(phrase.naming[:-1]) if w.text in ("named", "called")),
                 None)
    if named is not None and phrase.naming[0].text in ("player", "guy", "person", "friend", "one"):
        return named.written  # "the player named kim"
    if len(phrase.naming) != 1 or phrase.definite or phrase.count is not None:
        return None
    word = phrase.naming[0]
    if word.text in lexicon().player_pronouns:
        return word.text
    if resolve([word], "any")[0] is not None or word.text in lexicon().all_verbs or word.text in lexicon().fillers:
        return None
    ok = 3 <= len(word.text) <= 16 and set(word.text) <= USERNAME_CHARS
    english = len(word.lemmas) > 1 or _in_dictionary(word.text)  # its lemmas hold itself: more is a known word
    written_as_name = word.written != word.text or any(c.isdigit() or c == "_" for c in word.text)
    return word.written if ok and (following or not english or written_as_name) else None


def _in_dictionary(text: str) -> bool:
    return bool(getAllLemmas(text))


def tree_of(phrase: Phrase, verb: str, source: Phrase | None, context: Context,
             mc_version: str | None) -> Thing | None:
    """ "chop down the birch tree", "fell that spruce", "all the wood from that tree", "every log
    of it" (the tree just said): every log of the nearest tree of the kind, counted when the run
    starts ("a tree" is any, and a log of it will do)."""
    if phrase.count is not None or phrase.pronoun:
        return None
    if phrase.every and phrase.of is not None and phrase.of.pronoun and len(context.things) == 1 and \
            context.things[0].count_of == "tree":
        return context.things[0]
    places = [(phrase.naming, phrase.definite)] if verb in lexicon().dig_verbs else []
    places += [(p.naming, p.definite) for p in (phrase.of, source) if p is not None and (phrase.every or
                                                                                        verb in lexicon().dig_verbs)]
    for naming, definite in places:
        last = naming[-1].text if naming else ""
        if definite and (last in TREE_HEADS or f"{last}_log" in item_names(mc_version)):
            named, _ = resolve(naming if last in TREE_HEADS else [*naming, words_of("tree")[0]], "block", mc_version)
            if named is not None:
                return Thing(named, 1, "tree")
    return None


def asked(phrase: Phrase, verb: str, role: Role, context: Context, mc_version: str | None,
           made_into: bool = False, source: Phrase | None = None, from_chest: bool = False) -> Thing | Unread:
    """The item a phrase asks for under the verb: a tree's logs (all of them: "chop down the
    birch tree"), what digging gives, what smelting makes; or why it asks for none."""
    lex = lexicon()
    tree = tree_of(phrase, verb, source, context, mc_version)
    if tree is not None:
        return tree
    thing = thing_of(phrase, role, context, mc_version)
    if thing is None and role == "dig":
        thing = thing_of(phrase, "item", context, mc_version)
    if thing is None:
        return unknown(phrase, role, mc_version)
    if (phrase.every or thing.definite) and thing.count_of is None and not thing.said and phrase.pronoun is None \
            and from_chest:
        thing = replace(thing, count_of="chest")  # "take (all) the apples from the chest": as many as it holds
    if phrase.every and thing.count_of is None and not thing.said and phrase.pronoun is None:
        return Unread(words=phrase.says, why="all of it where? say how many, or \"all you are carrying\"")
    names = thing.named.names
    if verb in lex.dig_verbs and not made_into:
        names = tuple(dict.fromkeys(mined(n, mc_version) for n in names))
    elif verb in lex.smelt_verbs and not made_into:
        furnace = smelting()
        if len(names) == 1 and names[0] in furnace.recipes and names[0] in furnace.recipes.values():
            return Unread(words=phrase.says, why=f"{names[0]}, or what a furnace makes of it "
                                                 f"({furnace.recipes[names[0]]})? say which")
        if len(names) == 1 and names[0] in furnace.recipes and (thing.count_of in ("carried",) or thing.definite):
            thing = replace(thing, count_of=thing.count_of or "held", counted=names[0])  # "cook the raw beef"
        names = tuple(dict.fromkeys(furnace.recipes.get(n, n) for n in names))
    items = item_names(mc_version)
    names = tuple(n for n in names if n in items)
    if not names:
        return Unread(words=phrase.says, why="not something to carry")
    return replace(thing, named=Named(names, thing.named.kind if len(names) > 1 else None))


def of_source(thing: Thing, source: Phrase | None, mc_version: str | None) -> Thing:
    """A kind narrowed by where it comes from: "a log off a birch tree" is a birch log."""
    if source is None or thing.named.kind is None:
        return thing
    named, _ = resolve(source.naming, "block", mc_version)
    if named is None or len(named.names) != 1 or named.name not in thing.named.names:
        return thing
    return replace(thing, named=Named((named.name,)))


def made_thing(phrase: Phrase, mc_version: str | None) -> bool:
    """Whether a phrase after "into" names a thing to make, not a place to work or store in."""
    named, _ = resolve(phrase.naming, "item", mc_version)
    return named is not None and not set(named.names) & (CONTAINERS | WORKSTATIONS)


def from_container(ask: Ask, mc_version: str | None) -> bool:
    source = ask.prep("from")
    named = resolve(source.naming, "container", mc_version)[0] if source is not None else None
    return named is not None and named.name in CONTAINERS

