"""What a goal's clauses mean as checks: each clause's ask (asks.py) read into an intent and made
the sub-goals the world judges, in order; "it" and "them" are the thing said before.

The intents and their checks:
- get, make, dig, smelt, want ("chop three oak logs", "bake some bread", "I need sand"): has_item
  of each thing, as the verb asks for it (dug: what it drops; smelted: what the furnace makes);
- take out of a container ("take 3 bread out of that chest"): has_item; empty it ("empty that chest",
  "everything in it"): has_item of all it held at the start;
- store ("put the dirt you are carrying into the chest"): container_has, all carried when the words
  say so, in the nearest chest when they say "the"/"that";
- give a player ("give alex 3 apples"): carry them, then carry that many fewer (mc-give);
- go to, stand by, find a block ("walk over to the pond"): near_block; a player: near_player;
- stand on, climb onto ("climb up onto the stone platform"): standing_on;
- follow a player: near_player; come back: within the start; coordinates: within them;
- climb or pile up until a height ("four blocks off the ground"): feet_y_at_least;
- get out of a hole: at the ground's level around; to open sky: sky_visible;
- build a structure: structures.py; avoid a block ("don't touch the lava"): avoided.
"with X", "using X", "given X" say the means, not a goal. A clause whose verb or thing is not
understood adds nothing and its words are said back (`Understanding.unread`); where two readings
fit ("smelt stone": stone, or smooth stone from it?), neither is taken.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from lemminflect import getAllLemmas

from agent.checks.model import (All, Avoided, ContainerHas, FeetYAtLeast, Ground, HasItem, NearBlock, Nearness,
                                NearPlayer, Not, PlayerNearness, SkyVisible, Sphere, StandingOn, StandingOnGround,
                                Stock, Within)
from agent.blueprint.templates import StructureError
from agent.goals.asks import Ask, read_clause
from agent.goals.clauses import clauses
from agent.goals.lexicon import contains, lexicon
from agent.goals.nouns import Named, Phrase, Role, names_in, resolve
from agent.goals.structures import read_structure
from agent.goals.understanding import CountOf, SubGoal, Understanding, Unread, left_behind, needs_first
from agent.goals.words import Word, words_of
from agent.mc.gamedata import item_names, mined, recipes, smelting
from agent.mc.names import MAX_ITEM_COUNT, Item

NEAR_DISTANCE = 2.0  # beside the block (1.1 from its centre) or on it
FOLLOW_DISTANCE = 3.0  # mc-follow keeps 2 by default; a step behind still counts
RETURN_DISTANCE = 2.0  # back where it started: within two blocks of the spawn point
MADE_DEPTH = 3  # a later sub-goal uses up an earlier one it is made from this many recipes away
CONTAINERS = frozenset({"chest", "barrel", "trapped_chest", "shulker_box", "ender_chest"})
WORKSTATIONS = frozenset({"furnace", "crafting_table", "smoker", "blast_furnace", "campfire"})
TREE_HEADS = frozenset({"tree", "trees", "trunk"})
QUOTED_CLAUSE = re.compile(r"^'[^']*':?\s*")
# Verbs that follow a player said after them with "with": "stick with sam", "come with me".
FOLLOW_WITH = frozenset({"stick", "stay", "keep", "tag", "come", "go", "walk", "run", "head", "hang", "be"})
REFLEXIVES = frozenset({"yourself", "myself", "you", "me", "itself", "ourselves"})
GROUND_WORDS = frozenset({"ground", "floor", "land", "surface"})
USERNAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass
class Thing:
    """What a clause is about: its names (one, or a kind's), how many, and how the world counts it."""

    named: Named
    count: int = 1
    count_of: CountOf | None = None
    counted: str | None = None  # count_of's item, when not the thing's own (SubGoal.counted)
    said: bool = False  # the count was said, not a default
    definite: bool = False  # "the dirt", "that raw beef": the one there is, all of it
    naming: list[Word] = field(default_factory=list)  # the words that named it, read again for another role


@dataclass
class Context:
    """What the clauses read so far tell the next: the things the last one named ("them")."""

    things: list[Thing] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    hole: bool = False  # the words say the bot is down in something


@dataclass
class Read:
    """A clause's sub-goals and unread words."""

    subgoals: list[SubGoal] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    amends: bool = False  # a count for the sub-goal before ("4 should do")


def understand(goal: str, mc_version: str | None = None) -> Understanding:
    """The goal's sub-goals as the reader reads them, with the words it did not understand."""
    words = words_of(goal)
    context = Context(hole=contains(words, lexicon().down_words) or contains(words, lexicon().holes))
    subgoals: list[SubGoal] = []
    unread: list[Unread] = []
    for clause in clauses(words):
        read = _read(read_clause(clause), context, goal, mc_version)
        unread.extend(read.unread)
        if read.amends and subgoals and isinstance(subgoals[-1].check, HasItem) and read.subgoals:
            subgoals[-1] = read.subgoals[0]  # "..., I want at least 8": the count of the thing just asked
            continue
        for subgoal in read.subgoals:
            if subgoals and subgoals[-1].on_ground and isinstance(subgoal.check, StandingOnGround):
                continue  # out of the hole is on the ground already
            if subgoals and _uses_up(subgoal, subgoals[-1], mc_version):
                subgoals[-1] = subgoals[-1].model_copy(update={"lasting": False})
            if not (subgoals and subgoals[-1].check == subgoal.check and subgoals[-1].describe() == subgoal.describe()):
                subgoals.append(subgoal)  # "find the gold block and stand next to it" asks one thing twice
    if any(isinstance(s.check, SkyVisible) or s.on_ground for s in subgoals):
        unread = [u for u in unread if u.why not in (OUT_OF_WHERE, HOW_HIGH)]  # the way out, said first
    if not subgoals and not unread and goal.strip():
        unread = [Unread(words=goal.strip(), why="no ask I know")]
    return Understanding(goal=goal, subgoals=needs_first(left_behind(subgoals)), unread=unread)


OUT_OF_WHERE = "out of where? say \"to open sky\" or \"out of this hole\""
HOW_HIGH = "how high? say \"3 blocks higher\", \"to y 80\" or \"4 blocks off the ground\""


def _read(ask: Ask, context: Context, goal: str, mc_version: str | None) -> Read:
    """The sub-goals of one clause, by its mood and intent."""
    if ask.mood in ("statement", "question"):
        return _context(ask, context, mc_version)
    if ask.mood == "negated" or "avoid" in ask.intents:
        return _avoid(ask, mc_version)
    read = _intent(ask, context, goal, mc_version)
    said = {u.words for u in read.unread}
    read.unread.extend(u for u in _leftover(ask, mc_version) if u.words not in said and u.words != ask.says)
    return read


def _leftover(ask: Ask, mc_version: str | None) -> list[Unread]:
    """The clause's words nothing read, and the places after its prepositions that name nothing
    ("put it in the chest in the shed": the shed)."""
    out = [Unread(words=" ".join(w.written for w in ask.unread))] if ask.unread else []
    places = {*lexicon().holes, *lexicon().enclosures, *REFLEXIVES}
    for relation, phrase in ask.preps:
        if relation in ("means", "for", "of", "than") or phrase.pronoun or phrase.contents or not phrase.naming:
            continue
        if any(set(w.forms()) & places for w in phrase.naming):  # "out of this hole", "under yourself"
            continue
        if phrase.naming[0].text in ("here", "there") or _player_of(phrase) is not None:
            continue
        if resolve(phrase.naming, "any", mc_version)[0] is None:
            out.append(_unknown(phrase, "any", mc_version))
    return out


def _whole(ask: Ask, why: str = "") -> Read:
    return Read(unread=[Unread(words=ask.says, why=why)])


def _context(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """A statement or a question asks nothing, but what it names is what "them" means next."""
    things = [t for p in _phrases(ask) if (t := _thing(p, "item", context, mc_version)) is not None]
    if things:
        context.things = [replace(things[-1] if len(things) == 1 else things[0])] if len(things) == 1 else \
            [t for t in things if t.named.name not in CONTAINERS][-1:] or things[-1:]
        return Read()
    if ask.words and ask.words[-1].text in ("done", "finished", "ready") or ask.says.strip() == "":
        return Read()
    if contains(ask.words, lexicon().situation_words):  # "you're stuck down there": where the bot is
        return Read()
    player = _player_of(Phrase(naming=ask.words[:1])) if ask.words else None
    if player is not None:  # "alex is about to head off": who "him" is
        context.players = [player]
        return Read()
    return _whole(ask, "not an ask")


def _phrases(ask: Ask) -> list[Phrase]:
    """Every phrase of the clause: its objects, then those after its prepositions."""
    return [*ask.objects, *(p for _, p in ask.preps)]


def _avoid(ask: Ask, mc_version: str | None) -> Read:
    """ "don't touch the lava", "avoid fire", "never walk into water": the body is never in those
    blocks, whatever the verb."""
    blocks = list(dict.fromkeys(named.name for named, _, _ in names_in(ask.words, "block", mc_version)
                                if len(named.names) == 1))
    if not blocks:
        return _whole(ask, "what not to do is read only as a block to keep out of")
    return Read([SubGoal(says=ask.says, check=Avoided(avoided=blocks))])


def _intent(ask: Ask, context: Context, goal: str, mc_version: str | None) -> Read:
    """The sub-goals of an ask, by its verb and what follows it (see the module's doc)."""
    intents = set(ask.intents)
    parts = set(ask.particles)
    if ask.then_verb is not None:  # "smelt to obtain stone": obtain, the smelting the way
        intents = set(lexicon().intents(_lexeme(ask.then_verb))) or intents
    if ask.sky:
        return Read([SubGoal(says=ask.says, check=SkyVisible(sky_visible=True))])
    if ask.coords is not None and intents & {"go", "stand", "seek", "get"}:
        x, y, z = ask.coords
        return Read([SubGoal(says=ask.says, check=Within(within=Sphere(x=x, y=y, z=z, distance=RETURN_DISTANCE)))])
    if ask.start or ("back" in parts and intents & {"go", "get"} and not ask.objects and not ask.preps):
        back = Within(within=Sphere(x=0.0, y=0.0, z=0.0, distance=RETURN_DISTANCE))
        return Read([SubGoal(says=ask.says, check=back, from_start=True)])
    if "kill" in intents and not intents & {"get", "dig"} or ask.verb == "hunt":
        return _whole(ask, "no check says a creature is killed yet")
    if intents & {"shear", "milk"} and ask.verb in lexicon().products:
        return _product(ask, context, mc_version)
    if intents & {"build", "make"}:
        try:
            built = read_structure(ask.says, mc_version)
        except StructureError as e:
            return _whole(ask, QUOTED_CLAUSE.sub("", str(e)))  # the error names the clause, which the line shows
        if built is not None:
            ask.preps.clear()  # "across the gap", "around the chest": the structure's own words
            return Read([built])
    if (onto := ask.prep("onto")) is not None and intents & {"stand", "climb", "go", "get", "seek", "place"} and \
            not intents & {"store"} or ask.verb in ("mount",):
        return _stand_on(ask, onto, context, mc_version)
    if ask.height is not None:
        return _height(ask)
    if _gets_out(ask, intents):
        return _get_out(ask, context)
    if intents & {"follow"} or (ask.verb in FOLLOW_WITH and _with_player(ask)):
        return _follow(ask, goal)
    if (into := ask.prep("into")) is not None and intents & {"store"} and not _only_into_kind(ask, mc_version):
        return _store(ask, into, context, mc_version)
    if intents & {"store"} and (filled := _filled(ask, mc_version)) is not None:
        return _store(replace(ask, objects=[filled[1]]), filled[0], context, mc_version)
    if intents & {"empty"} and not ask.prep("into") or any(p.contents for p in ask.objects):
        return _empty(ask, context, mc_version)
    if intents & {"give"} and len(ask.objects) > 1 and (player := _player_of(ask.objects[0], True)) is not None:
        return _give(replace(ask, objects=ask.objects[1:]), context, mc_version, player=player)  # "give alex 3 apples"
    if intents & {"give"} and ask.recipient not in ("me", "us", None, "yourself"):
        return _give(ask, context, mc_version, player=ask.recipient)
    if intents & {"give"} and (to := ask.prep("near")) is not None and _player_of(to) is not None:
        return _give(ask, context, mc_version, player=_player_of(to))
    if intents & {"climb"} and not intents & {"get", "make", "dig"}:
        return _whole(ask, HOW_HIGH)
    if _goes_near(ask, intents, mc_version):
        return _near(ask, context, goal, mc_version)
    if intents & {"means"} and not ask.wanting:  # "use the dirt you've got": a way, not a goal
        _remember(ask, context, mc_version)
        return Read()
    if intents & {"get", "dig", "make", "smelt", "want", "give", "store", "empty"} or ask.verb is None:
        return _obtain(ask, context, mc_version)
    if intents & {"go", "stand"} and not (ask.objects or ask.preps):
        return Read()  # "walk over and stand beside it": the walk is the way to what follows
    return _whole(ask, f"I do not know what to {ask.verb}" if ask.verb else "")


def _gets_out(ask: Ask, intents: set[str]) -> bool:
    """ "get out of the pit", "climb out", "leave the hall": out of somewhere, nothing to take along."""
    if ask.objects and not intents & {"leave"}:
        return False
    source = ask.prep("from")
    return "out" in ask.particles or "leave" in intents or (
        source is not None and bool(intents & {"climb", "go", "get"}) and not source.contents and
        resolve(source.naming, "container")[0] is None)


def _lexeme(verb: str) -> Word:
    return words_of(verb)[0]


def _goes_near(ask: Ask, intents: set[str], mc_version: str | None) -> bool:
    """Whether the ask is to be by a thing: a verb of going or standing with one after "to"/"by"/
    "next to", or a verb of finding a block (not "find me 3 apples", which asks for them)."""
    if intents & {"go", "stand"} and (ask.prep("near") or ask.prep("into")) and \
            not (ask.objects and intents & {"get", "dig", "make"}):
        return True
    if "seek" in intents and ask.recipient is None and ask.objects:
        phrase = ask.objects[0]
        block, _ = resolve(phrase.naming, "block", mc_version)
        item, _ = resolve(phrase.naming, "item", mc_version)
        return (block is not None or _player_of(phrase) is not None) and \
            (phrase.count is None or phrase.count <= 1 or item is None)
    return bool(intents & {"go", "stand"}) and not intents & {"get", "make", "dig"} and bool(ask.objects)


def _with_player(ask: Ask) -> bool:
    """ "stick with sam", "stay close to alex": a player after the verb's preposition."""
    return any(_player_of(p, following=True) is not None for r, p in ask.preps if r in ("means", "near") and
               not p.definite)


def _player_of(phrase: Phrase, following: bool = False) -> str | None:
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
    english = len(word.lemmas) > 1 or word.lemmas - {word.text} or _in_dictionary(word.text)
    written_as_name = word.written != word.text or any(c.isdigit() or c == "_" for c in word.text)
    return word.written if ok and (following or not english or written_as_name) else None


def _in_dictionary(text: str) -> bool:
    return bool(getAllLemmas(text))


def _thing(phrase: Phrase, role: Role, context: Context, mc_version: str | None) -> Thing | None:
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
    if named is None or _qualified_unknown(phrase, mc_version):
        return None
    if phrase.carried and phrase.count is None:
        return Thing(named, 1, "carried", naming=phrase.naming)
    if phrase.count is not None:
        return Thing(named, min(phrase.count, MAX_ITEM_COUNT), said=True, naming=phrase.naming)
    return Thing(named, naming=phrase.naming, definite=phrase.definite and not phrase.every)


def _qualified_unknown(phrase: Phrase, mc_version: str | None) -> bool:
    """Whether "of X" after a thing names what no name covers ("a potion of healing"): the thing
    is then another than its name says, and not read."""
    of = phrase.of
    return of is not None and bool(of.naming) and of.pronoun is None and \
        resolve(of.naming, "any", mc_version)[0] is None and not any(w.text in TREE_HEADS for w in of.naming)


def _unknown(phrase: Phrase, role: Role, mc_version: str | None) -> Unread:
    """Why a phrase names nothing: the words no name covers, or two things where one was meant."""
    named, unknown = resolve(phrase.naming, role, mc_version)
    if not phrase.naming and phrase.pronoun is None:
        return Unread(words=phrase.says, why="of what?")
    if named is not None and _qualified_unknown(phrase, mc_version):
        return Unread(words=phrase.says, why=f"{named.name} of what? no such thing in the game: "
                                             f"{' '.join(w.written for w in phrase.of.naming)}")
    if unknown:
        return Unread(words=phrase.says, why=f"no such thing in the game: {' '.join(unknown)}")
    if phrase.pronoun is not None:
        return Unread(words=phrase.says, why="it could be more than one thing said before, or nothing")
    return Unread(words=phrase.says, why="more than one thing")


def _obtain(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """has_item of each thing asked, as the verb asks for it."""
    product = ask.prep("into")
    if product is not None and not _made_thing(product, mc_version):
        product = None  # "cook the chicken in the furnace": where, not what it makes
    objects = ask.objects
    if product is not None and any(p.every or p.carried for p in ask.objects) and \
            (ask.verb or "") not in lexicon().smelt_verbs:
        return _whole(ask, "all of them made into another thing: how many? say the number")
    if product is not None and ask.intents and not set(ask.intents) & {"store"}:  # "smelt 4 sand into glass"
        smelted = (ask.verb or "") in lexicon().smelt_verbs  # a furnace makes one of each
        counted = next((p.count for i, p in enumerate(ask.objects) if p.count is not None and (
            smelted or i > 0 and (p.empty or p.pronoun))), None)  # "turn it into planks, 8 of them"
        objects = [product if product.count is not None or counted is None else replace(product, count=counted)]
    if not objects:
        return _amend(ask, context) if ask.verb is None or set(ask.intents) & {"want", "get"} else \
            _whole(ask, f"{ask.verb} what?")
    read = Read()
    verb = ask.then_verb or ask.verb or "get"
    role: Role = "dig" if verb in lexicon().dig_verbs and ask.then_verb is None else "item"
    things: list[Thing] = []
    for phrase in objects:
        if phrase.contents:
            continue
        if (phrase.empty or phrase.pronoun) and phrase.count is not None and things:  # "some sand, 4 should do"
            things[-1] = replace(things[-1], count=phrase.count, count_of=None, said=True)
            read.subgoals[-1] = _has(ask.says, things[-1])
            continue
        if phrase.empty and phrase.count is not None:  # "get me 2": of the thing said before
            amended = _amend(ask, context, phrase.count)
            read.subgoals.extend(amended.subgoals)
            read.unread.extend(amended.unread)
            read.amends = amended.amends
            continue
        thing = _asked(phrase, verb, role, context, mc_version, made_into=product is not None,
                       source=ask.prep("from"), from_chest=_from_container(ask, mc_version))
        thing = _of_source(thing, ask.prep("from"), mc_version) if isinstance(thing, Thing) else thing
        if isinstance(thing, Unread):
            read.unread.append(thing)
            continue
        things.append(thing)
        context.things = things[-1:]  # "all the wood from that tree, every log of it"
        read.subgoals.append(_has(ask.says, thing))
    if things:
        context.things = things
    return read


def _tree_of(phrase: Phrase, verb: str, source: Phrase | None, context: Context,
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


def _asked(phrase: Phrase, verb: str, role: Role, context: Context, mc_version: str | None,
           made_into: bool = False, source: Phrase | None = None, from_chest: bool = False) -> Thing | Unread:
    """The item a phrase asks for under the verb: a tree's logs (all of them: "chop down the
    birch tree"), what digging gives, what smelting makes; or why it asks for none."""
    lex = lexicon()
    tree = _tree_of(phrase, verb, source, context, mc_version)
    if tree is not None:
        return tree
    thing = _thing(phrase, role, context, mc_version)
    if thing is None and role == "dig":
        thing = _thing(phrase, "item", context, mc_version)
    if thing is None:
        return _unknown(phrase, role, mc_version)
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


def _of_source(thing: Thing, source: Phrase | None, mc_version: str | None) -> Thing:
    """A kind narrowed by where it comes from: "a log off a birch tree" is a birch log."""
    if source is None or thing.named.kind is None:
        return thing
    named, _ = resolve(source.naming, "block", mc_version)
    if named is None or len(named.names) != 1 or named.name not in thing.named.names:
        return thing
    return replace(thing, named=Named((named.name,)))


def _made_thing(phrase: Phrase, mc_version: str | None) -> bool:
    """Whether a phrase after "into" names a thing to make, not a place to work or store in."""
    named, _ = resolve(phrase.naming, "item", mc_version)
    return named is not None and not set(named.names) & (CONTAINERS | WORKSTATIONS)


def _from_container(ask: Ask, mc_version: str | None) -> bool:
    source = ask.prep("from")
    named = resolve(source.naming, "container", mc_version)[0] if source is not None else None
    return named is not None and named.name in CONTAINERS


def _has(says: str, thing: Thing) -> SubGoal:
    check = HasItem(has_item=Item(name=thing.named.name, count=thing.count))
    kinds = list(thing.named.names) if thing.named.kind else []
    return SubGoal(says=says, check=check, kinds=kinds, count_of=thing.count_of, counted=thing.counted)


def _amend(ask: Ask, context: Context, count: int | None = None) -> Read:
    """A count alone ("4 should do", "I want at least 8", "get me 2"): of the thing said before."""
    count = count or next((p.count for p in ask.objects if p.count is not None), None)
    if count is None or len(context.things) != 1:
        return _whole(ask, "of what?") if ask.says else Read()
    thing = replace(context.things[0], count=count, count_of=None, said=True)
    amends = not context.things[0].said
    context.things = [thing]
    return Read([_has(ask.says, thing)], amends=amends)


def _product(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """ "shear the sheep": wool; "milk a cow": a bucket of milk."""
    table = lexicon().products[ask.verb or ""]
    for phrase in ask.objects:
        creature = next((w.text for w in phrase.naming if w.text in table or set(w.forms()) & set(table)), None)
        if creature is None:
            continue
        made = table.get(creature) or next(table[f] for f in phrase.naming[0].forms() if f in table)
        names = tuple(n for n in sorted(item_names(mc_version)) if n.endswith(made)) if made.startswith("_") else (made,)
        thing = Thing(Named(names, made if made.startswith("_") else None), phrase.count or 1)
        context.things = [thing]
        return Read([_has(ask.says, thing)])
    return _whole(ask, f"{ask.verb} what?")


def _store(ask: Ask, into: Phrase, context: Context, mc_version: str | None) -> Read:
    """container_has of each thing put into a container."""
    container, _ = resolve(into.naming, "container", mc_version)
    if into.pronoun is not None and not into.naming:
        container = Named(("chest",))
    if container is None or container.name not in CONTAINERS:
        return Read(unread=[Unread(words=into.says, why="not a container I can put things in")])
    if container.name != "chest":  # the world's check reads chests (container_has)
        return Read(unread=[Unread(words=into.says, why="what a container holds is checked in chests only")])
    read = Read()
    phrases = ask.objects or [Phrase(words=words_of("it"), pronoun="it")]  # "put in the chest": what was said
    for phrase in phrases:
        thing = _thing(phrase, "item", context, mc_version)
        if thing is None:
            read.unread.append(_unknown(phrase, "item", mc_version))
            continue
        if phrase.every and not phrase.carried and phrase.count is None and thing is not None:
            thing = thing if thing.said or thing.count_of else replace(thing, count_of="carried")
        if thing.definite and thing.count_of is None:
            thing = replace(thing, count_of="held")  # "put the dirt in the chest": the dirt there is
        stock = Stock(name=thing.named.name, count=thing.count)
        kinds = list(thing.named.names) if thing.named.kind else []
        read.subgoals.append(SubGoal(says=ask.says, check=ContainerHas(container_has=stock), kinds=kinds,
                                     count_of=thing.count_of if thing.count_of in ("carried", "held") else None,
                                     at_nearest=into.definite or into.pronoun is not None))
        context.things = [thing]
    return read


def _filled(ask: Ask, mc_version: str | None) -> tuple[Phrase, Phrase] | None:
    """ "fill the chest with dirt", "load that chest with 10 torches": the container, and what goes
    in it (after "with")."""
    thing = ask.prep("means")
    if not ask.objects or thing is None:
        return None
    named, _ = resolve(ask.objects[0].naming, "container", mc_version)
    return (ask.objects[0], thing) if named is not None and named.name in CONTAINERS else None


def _only_into_kind(ask: Ask, mc_version: str | None) -> bool:
    """ "turn the logs into planks": "into" a thing made, not a container."""
    into = ask.prep("into")
    return into is not None and _made_thing(into, mc_version)


def _empty(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """Everything the nearest chest holds at the start, taken ("empty that chest", "take
    everything out of it")."""
    phrases = [p for p in _phrases(ask)]
    place = next((p.of or p for p in phrases if p.contents or resolve(p.naming, "container", mc_version)[0]), None)
    if place is not None and place.naming:
        named, _ = resolve(place.naming, "container", mc_version)
        if named is None or named.name not in CONTAINERS:
            return _whole(ask, "empty what? a chest")
    read = Read([SubGoal(says=ask.says, check=HasItem(has_item=Item(name="chest", count=1)), contents=True)])
    context.things = []
    return read


def _give(ask: Ask, context: Context, mc_version: str | None, player: str | None) -> Read:
    """Carry the things, then carry that many fewer: handed to the player (mc-give)."""
    got = _obtain(ask, context, mc_version)
    if not got.subgoals or player is None:
        return got
    gives = []
    for sub in got.subgoals:
        item = sub.check.has_item  # _obtain's sub-goals are has_item
        rest = HasItem(has_item=item.model_copy(update={"count": 1}))
        gives.append(SubGoal(says=ask.says, check=Not(**{"not": rest}), count_of="given", lasting=True,
                             players=[player] if player.lower() in lexicon().player_pronouns else [],
                             given={"mc-give": {"player": player, "item": item.name, "count": item.count}}))
    return Read([*got.subgoals, *gives], got.unread)


def _near(ask: Ask, context: Context, goal: str, mc_version: str | None) -> Read:
    """near_block of the place gone to (a block kind), or near_player of a player."""
    phrase = ask.prep("near") or ask.prep("into") or (ask.objects[0] if ask.objects else None)
    if phrase is None:
        return Read()
    player = _player_of(phrase)
    if player is not None:
        return Read([_near_player(ask.says, player, goal)])
    thing = _thing(phrase, "block", context, mc_version)
    if thing is None:
        return Read(unread=[_unknown(phrase, "block", mc_version)])
    context.things = [thing]
    near = NearBlock(near_block=Nearness(block=thing.named.name, distance=NEAR_DISTANCE))
    return Read([SubGoal(says=ask.says, check=near, kinds=list(thing.named.names) if thing.named.kind else [])])


def _stand_on(ask: Ask, onto: Phrase, context: Context, mc_version: str | None) -> Read:
    """standing_on the block ("climb onto the stone platform", "stand on top of the gold block")."""
    if any(w.text in GROUND_WORDS for w in onto.naming):  # "stand on the ground outside it"
        return Read([SubGoal(says=ask.says, check=StandingOnGround(standing_on_ground=True))])
    thing = _thing(onto, "block", context, mc_version)
    if thing is None:
        return Read(unread=[_unknown(onto, "block", mc_version)])
    context.things = [thing]
    check = StandingOn(standing_on=Ground(block=thing.named.name))
    return Read([SubGoal(says=ask.says, check=check, kinds=list(thing.named.names) if thing.named.kind else [])])


def _height(ask: Ask) -> Read:
    height = ask.height
    assert height is not None
    if "down" in ask.particles or ask.verb in lexicon().dig_verbs:
        return _whole(ask, "down to a height: no check says \"at most\"")
    check = FeetYAtLeast(feet_y_at_least=float(height.blocks))
    return Read([SubGoal(says=ask.says, check=check, from_start=height.above == "start",
                         above_ground=height.above == "ground")])


def _get_out(ask: Ask, context: Context) -> Read:
    """Out of a hole (the words say the bot is down in one): at the ground's level around."""
    named = [w for p in _phrases(ask) for w in p.naming]
    if any(set(w.forms()) & set(lexicon().enclosures) for w in named):  # out of a cave or a room: under the sky
        return Read([SubGoal(says=ask.says, check=SkyVisible(sky_visible=True))])
    hole = context.hole or "up" in ask.particles or any(set(w.forms()) & set(lexicon().holes) for w in named)
    if not hole:
        return _whole(ask, OUT_OF_WHERE)
    out = All(all=[FeetYAtLeast(feet_y_at_least=0.0), StandingOnGround(standing_on_ground=True)])
    return Read([SubGoal(says=ask.says, check=out, on_ground=True)])


def _follow(ask: Ask, goal: str) -> Read:
    player = next((p for ph in _phrases(ask) if (p := _player_of(ph, following=True)) is not None), None)
    if player is None:
        return _whole(ask, "follow whom? say a player's name")
    return Read([_near_player(ask.says, player, goal, FOLLOW_DISTANCE)])


def _near_player(says: str, player: str, goal: str, distance: float = FOLLOW_DISTANCE) -> SubGoal:
    """near_player for a name as written; for a pronoun ("him", "me"), a player the goal names or,
    when one alone is online, that one (grounding decides)."""
    if player.lower() not in lexicon().player_pronouns and player != "them":
        return SubGoal(says=says, check=NearPlayer(near_player=PlayerNearness(name=player, distance=distance)))
    anyone = NearPlayer(near_player=PlayerNearness(name="someone", distance=distance))
    names = [w.written for w in words_of(goal) if 3 <= len(w.text) <= 16 and w.text.isidentifier()]
    return SubGoal(says=says, check=anyone, players=names)


def _remember(ask: Ask, context: Context, mc_version: str | None) -> None:
    """ "use the dirt you've got": the thing "it" means next."""
    things = [t for p in ask.objects if (t := _thing(p, "item", context, mc_version)) is not None]
    if things:
        context.things = things[-1:]


def _uses_up(made: SubGoal, before: SubGoal, mc_version: str | None) -> bool:
    """Whether getting `made` uses up what `before` got: a recipe or a furnace makes it from that
    thing (planks after logs, a table after a tree)."""
    if not (isinstance(made.check, HasItem) and isinstance(before.check, HasItem)):
        return False
    return _made_from(made.check.has_item.name, set(before.kinds or [before.check.has_item.name]), mc_version) or \
        bool(made.kinds and set(made.kinds) & _made_set(set(before.kinds or [before.check.has_item.name]), mc_version))


def _made_set(used: set[str], mc_version: str | None) -> set[str]:
    return {name for name, ways in recipes(mc_version).items() for way in ways if set(way.ingredients) & used}


def _made_from(name: str, used: set[str], mc_version: str | None, depth: int = MADE_DEPTH) -> bool:
    """Whether a recipe or a furnace makes `name` from one of `used`, directly or through what it
    takes (a table from planks from logs), up to `depth` steps."""
    if depth == 0:
        return False
    inputs = {i for r in recipes(mc_version).get(name, ()) for i in r.ingredients}
    inputs |= set(smelting().inputs_for(name))
    return bool(inputs & used) or any(_made_from(i, used, mc_version, depth - 1) for i in inputs)

