"""Reading a goal by rules: split into clauses ("X then Y", "X and put it in the chest", "…, then
come back here"), each clause read for what it asks (get, store, find, follow, return, climb,
get out of a hole, open sky; the words for each are phrases.py's; build a structure:
structures.py) and the game's names found anywhere in it (names.py), "it"/"them" taking the
thing of the clause before. A clause no rule reads adds nothing; a goal none reads gets no
sub-goal, and then the run has no check (a wrong check is worse than none). A structure no
template builds is an error that says which they are.

What a sub-goal needs first is made a sub-goal before it (understanding.py's needs_first):
"put five oak logs into the chest" is has_item oak_log 5 (already held by a bot that carries
them), then container_has oak_log 5.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.checks.model import (All, ContainerHas, FeetYAtLeast, HasItem, NearBlock, Nearness, NearPlayer, PlayerNearness,
                                SkyVisible, Sphere, StandingOnGround, Stock, Within)
from agent.goals.names import USERNAME, Named, find_names, mined, words_of
from agent.goals.phrases import (BLOCKS, BLOCK_OF, CLAUSE, CLIMB, COORDS, COUNTED_BEFORE, DIG_VERBS, DOWN, DOWNWARD,
                                 FOLLOW, FOLLOW_DISTANCE, FROM_CHEST, GET, GO, HEIGHT, INTO, JOIN, LEVEL, LISTED,
                                 MADE_DEPTH, MAKE_ONLY_VERBS, MAKE_VERBS, MAX_COUNT, NEAR, NEAR_DISTANCE, NOT_NAMES,
                                 NUMBERS, NUMBER_PHRASE, OUT, PHRASES, PLACES, PRONOUN, RETURN, RETURN_DISTANCE,
                                 SAYS_WHAT_IS, SKY, SMELT_VERBS, SOURCE, STORE, VERB)
from agent.goals.structures import read_structure
from agent.goals.understanding import SubGoal, Understanding, left_behind, needs_first
from agent.mc.gamedata import block_names, item_names, recipes, smelting
from agent.mc.names import Item


@dataclass(frozen=True)
class Thing:
    """What a clause is about: a name (or a kind's names) and how many."""

    names: tuple[str, ...]
    count: int
    kind: str | None = None
    start: int = -1  # its first word's position in the clause; -1: a pronoun's thing from before


def understand(goal: str, mc_version: str | None = None) -> Understanding:
    """The goal's sub-goals as rules read them; none when no rule reads any clause."""
    subgoals: list[SubGoal] = []
    thing: Thing | None = None
    for clause in clauses(goal):
        read = _read(clause, thing, mc_version, goal)
        if read is None:  # "there's a chest with apples in it": no ask, but what "them" means next
            thing = _thing(words_of(clause), item_names(mc_version), None, skip=PLACES) or thing
            continue
        found, thing = read
        if found and subgoals and _uses_up(clause, found[0], subgoals[-1], mc_version):
            subgoals[-1] = subgoals[-1].model_copy(update={"lasting": False})
        for subgoal in found:
            if subgoals and subgoals[-1].check == subgoal.check:
                continue  # "find the gold block and stand next to it" asks one thing twice
            subgoals.append(subgoal)
    return Understanding(goal=goal, subgoals=needs_first(left_behind(subgoals)))


def clauses(goal: str) -> list[str]:
    """The goal's clauses in order: split at sentence ends and "then", and at "and" or a comma
    where a verb follows (not in "oak and birch logs")."""
    text = BLOCK_OF.sub(r"\1 block", NUMBER_PHRASE.sub(lambda m: PHRASES[m[1]], LISTED.sub(" ", goal.lower())))
    out: list[str] = []
    for part in CLAUSE.split(text):
        pieces = JOIN.split(part)
        current = pieces[0]
        for piece in pieces[1:]:
            if VERB.match(piece.strip()) or piece.strip().startswith(("please ", "also ")):
                out.append(current)
                current = piece
            else:
                current += " and " + piece
        out.append(current)
    return [c.strip(" ,") for c in out if c.strip(" ,")]


def _read(clause: str, before: Thing | None, mc_version: str | None,
          goal: str) -> tuple[list[SubGoal], Thing | None] | None:
    """The clause's sub-goals and the thing it is about (for a pronoun after it); None when no rule
    reads it. `goal` is the whole text as written: a player's name keeps its case."""
    words = words_of(clause)
    if SAYS_WHAT_IS.match(clause):
        return None  # "you carry dirt", "I have a pickaxe": what is, not what is asked
    if STORE.search(clause):
        thing = _thing(words, item_names(mc_version), before, skip=PLACES)
        if thing is not None:
            stock = Stock(name=thing.names[0], count=thing.count)
            return [_sub(clause, ContainerHas(container_has=stock), thing)], thing
    if RETURN.search(clause):
        back = Within(within=Sphere(x=0.0, y=0.0, z=0.0, distance=RETURN_DISTANCE))
        return [SubGoal(says=clause, check=back, from_start=True)], before
    if (follow := FOLLOW.search(clause)) is not None:
        return [_follow(clause, follow["name"], goal)], before
    if SKY.search(clause):
        return [SubGoal(says=clause, check=SkyVisible(sky_visible=True))], before
    if OUT.search(clause) and (DOWN.search(clause) or DOWN.search(goal.lower())):
        out = All(all=[FeetYAtLeast(feet_y_at_least=0.0), StandingOnGround(standing_on_ground=True)])
        return [SubGoal(says=clause, check=out, on_ground=True)], before
    if (at := COORDS.search(clause)) is not None and GO.search(clause):
        x, y, z = (float(v) for v in at.groups())
        return [SubGoal(says=clause, check=Within(within=Sphere(x=x, y=y, z=z, distance=RETURN_DISTANCE)))], before
    if (level := LEVEL.search(clause)) is not None and not DOWNWARD.search(clause):
        return [SubGoal(says=clause, check=FeetYAtLeast(feet_y_at_least=float(level["n"])))], before
    if (built := read_structure(clause, mc_version)) is not None:
        return [built], before
    height = HEIGHT.search(clause) or (BLOCKS.search(clause) if CLIMB.search(clause) else None)
    if height is not None:
        rise = FeetYAtLeast(feet_y_at_least=float(height["n"]))
        return [SubGoal(says=clause, check=rise, from_start=True)], before
    if (get := GET.search(clause)) is not None and (read := _get(clause, words, get["verb"], before, mc_version)):
        return read
    if NEAR.search(clause):
        thing = _thing(words, block_names(mc_version), before, suffix="_block")
        if thing is not None:
            near = NearBlock(near_block=Nearness(block=thing.names[0], distance=NEAR_DISTANCE))
            return [_sub(clause, near, thing)], thing
    return None


def _uses_up(clause: str, made: SubGoal, before: SubGoal, mc_version: str | None) -> bool:
    """Whether getting `made` uses up what `before` got: "turn it into planks", "craft a table from
    them", or a recipe or furnace that makes it from that thing (planks after logs)."""
    if not (isinstance(made.check, HasItem) and isinstance(before.check, HasItem)):
        return False
    source = SOURCE.search(clause)
    if INTO.search(clause) or (source and PRONOUN.search(clause[source.end():])):
        return True
    return _made_from(made.check.has_item.name, set(before.kinds or [before.check.has_item.name]), mc_version)


def _made_from(name: str, used: set[str], mc_version: str | None, depth: int = MADE_DEPTH) -> bool:
    """Whether a recipe or a furnace makes `name` from one of `used`, directly or through what it
    takes (a table from planks from logs), up to `depth` steps."""
    if depth == 0:
        return False
    inputs = {i for r in recipes(mc_version).get(name, ()) for i in r.ingredients}
    inputs |= set(smelting().inputs_for(name))
    return bool(inputs & used) or any(_made_from(i, used, mc_version, depth - 1) for i in inputs)


def _follow(clause: str, name: str, goal: str) -> SubGoal:
    """near_player for the name as the goal writes it; for a pronoun ("stick with him", "follow
    me"), any player the goal names or, when one alone is online, that one (grounding decides)."""
    if name.lower() not in NOT_NAMES:
        written = re.search(rf"\b{re.escape(name)}\b", goal, re.IGNORECASE)
        return SubGoal(says=clause, check=NearPlayer(near_player=PlayerNearness(
            name=written[0] if written else name, distance=FOLLOW_DISTANCE)))
    anyone = NearPlayer(near_player=PlayerNearness(name="someone", distance=FOLLOW_DISTANCE))
    return SubGoal(says=clause, check=anyone, players=USERNAME.findall(goal))


def _get(clause: str, words: list[str], verb: str, before: Thing | None,
         mc_version: str | None) -> tuple[list[SubGoal], Thing] | None:
    """has_item for each thing a clause asks to get ("2 logs and 2 blocks of sand"): dug things as
    what they drop, and "build" only for an item a recipe makes."""
    items = item_names(mc_version)
    named = _things(words, items | block_names(mc_version), before, skip=PLACES if FROM_CHEST.search(clause) else
                    PLACES - {"chest", "furnace", "crafting_table", "barrel"})
    used = _used(words)
    things = [_as_asked(t, verb, mc_version) for t in ([t for t in named if t.start not in used] or named)]
    if verb in MAKE_ONLY_VERBS:
        things = [t for t in things if t.names[0] in recipes(mc_version)]
    things = [t for t in things if t.names[0] in items]
    if not things:
        return None
    return [_sub(clause, HasItem(has_item=Item(name=t.names[0], count=t.count)), t) for t in things], things[-1]


def _used(words: list[str]) -> range | set[int]:
    """Word positions whose things a clause uses rather than asks for: after "from", "with",
    "using", "out of"; before "into" ("turn the logs into planks")."""
    if "into" in words:
        return range(words.index("into"))
    source = SOURCE.search(" ".join(words))
    return range(len(" ".join(words)[:source.start()].split()), len(words)) if source else set()


def _as_asked(thing: Thing, verb: str, mc_version: str | None) -> Thing:
    """The item a clause's verb asks for from what it names: what a furnace makes of it ("smelt
    raw iron"), what digging it gives ("mine stone", "get iron ore": an ore no recipe or furnace
    makes is got as its drop); else the thing."""
    if verb in SMELT_VERBS and (out := smelting().recipes.get(thing.names[0])):
        return Thing((out,), thing.count, start=thing.start)
    if verb in MAKE_VERBS or verb in SMELT_VERBS:
        return thing
    dug = [mined(n, mc_version) if verb in DIG_VERBS or _never_made(n, mc_version) else n for n in thing.names]
    return Thing(tuple(dict.fromkeys(dug)), thing.count, thing.kind, thing.start)


def _never_made(name: str, mc_version: str | None) -> bool:
    return name not in recipes(mc_version) and name not in smelting().recipes.values()


def _things(words: list[str], names: frozenset[str], before: Thing | None, *, skip: frozenset[str] = frozenset(),
            suffix: str = "") -> list[Thing]:
    """Every name among `names` in the words (not one in `skip`) with its count; "it"/"them" alone
    is `before` (with a count of its own when the clause gives one: "get me 3 of them"). `suffix`:
    a word that is a name with it counts ("the gold": gold_block)."""
    found = [n for n in find_names(words, names, suffix) if n.name not in skip]
    if found:
        return [Thing(n.names, _count(words, n), n.kind, n.start) for n in found]
    counted = [n for w in words if w not in ("a", "an", "one") and (n := _number(w)) is not None]
    if before is None or not (PRONOUN.search(" ".join(words)) or counted):  # "get me 2" of what was just named
        return []
    return [Thing(before.names, counted[0] if counted else before.count, before.kind)]


def _thing(words: list[str], names: frozenset[str], before: Thing | None, *, skip: frozenset[str] = frozenset(),
           suffix: str = "") -> Thing | None:
    """The first of `_things`."""
    return next(iter(_things(words, names, before, skip=skip, suffix=suffix)), None)


def _count(words: list[str], named: Named) -> int:
    """The number just before the name ("three oak logs", "3 big logs"), else one anywhere else in
    the clause that is not a height ("sand, 4 should do"), else 1."""
    for word in reversed(words[max(0, named.start - COUNTED_BEFORE):named.start]):
        if (n := _number(word)) is not None:
            return n
    for i, word in enumerate(words):
        n = _number(word)
        if n is not None and word not in ("a", "an", "one") and not HEIGHT.match(" ".join(words[i:i + 3])):
            return n
    return 1


def _number(word: str) -> int | None:
    word = word.removesuffix("x") if word[:-1].isdigit() else word  # "3x oak log"
    if word.isdigit():
        return min(max(int(word), 1), MAX_COUNT)
    return NUMBERS.get(word)


def _sub(clause: str, check, thing: Thing) -> SubGoal:
    return SubGoal(says=clause, check=check, kinds=list(thing.names) if thing.kind else [])
