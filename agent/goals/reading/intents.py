"""Which intent an ask has, rule by rule in order: the first rule that takes the ask reads it. A
verb's intents come from the lexicon; what follows the verb decides among them ("get" + "onto"
stands on a thing, "take" + "out of" a chest takes from it, "go" + "back" returns), and a verb
"to" another ("smelt to obtain stone") asks for what the second says."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from agent.blueprint.templates import StructureError
from agent.checks.model import SkyVisible, Sphere, Within
from agent.goals.reading.asks import Ask
from agent.goals.reading.getting import filled, give, obtain, only_into_kind, product_of, remember, store, take_all
from agent.goals.reading.lexicon import lexicon
from agent.goals.reading.model import HOW_HIGH, RETURN_DISTANCE, Context, Read, whole
from agent.goals.reading.places import (FOLLOW_WITH, follow, get_out, gets_out, go_near, goes_near, rise, stand_on,
                                        with_player)
from agent.goals.reading.structures import read_structure
from agent.goals.reading.things import player_of
from agent.goals.reading.words import word
from agent.goals.understanding import SubGoal

QUOTED_CLAUSE = re.compile(r"^'[^']*':?\s*")


@dataclass(frozen=True)
class Clause:
    """An ask with its intents and what the rules read it against."""

    ask: Ask
    intents: frozenset[str]
    context: Context
    goal: str
    mc_version: str | None


def read_intent(ask: Ask, context: Context, goal: str, mc_version: str | None) -> Read:
    """The sub-goals of an ask, by the first rule that takes it."""
    intents = set(ask.intents)
    if ask.then_verb is not None:  # "smelt to obtain stone": obtain, the smelting the way
        intents = set(lexicon().intents(word(ask.then_verb))) or intents
    clause = Clause(ask, frozenset(intents), context, goal, mc_version)
    for rule in RULES:
        if (read := rule(clause)) is not None:
            return read
    return whole(ask, f"I do not know what to {ask.verb}" if ask.verb else "")


def _sky(c: Clause) -> Read | None:
    return Read([SubGoal(says=c.ask.says, check=SkyVisible(sky_visible=True))]) if c.ask.sky else None


def _coordinates(c: Clause) -> Read | None:
    if c.ask.coords is None or not c.intents & {"go", "stand", "seek", "get"}:
        return None
    x, y, z = c.ask.coords
    return Read([SubGoal(says=c.ask.says, check=Within(within=Sphere(x=x, y=y, z=z, distance=RETURN_DISTANCE)))])


def _back(c: Clause) -> Read | None:
    """ "come back", "return to where you started": where the bot was when the run began."""
    ask = c.ask
    if not (ask.start or "back" in ask.particles and c.intents & {"go", "get"} and not ask.objects and not ask.preps):
        return None
    back = Within(within=Sphere(x=0.0, y=0.0, z=0.0, distance=RETURN_DISTANCE))
    return Read([SubGoal(says=ask.says, check=back, from_start=True)])


def _killing(c: Clause) -> Read | None:
    if "kill" in c.intents and not c.intents & {"get", "dig"} or c.ask.verb == "hunt":
        return whole(c.ask, "no check says a creature is killed yet")
    return None


def _shearing(c: Clause) -> Read | None:
    if c.intents & {"shear", "milk"} and c.ask.verb in lexicon().products:
        return product_of(c.ask, c.context, c.mc_version)
    return None


def _building(c: Clause) -> Read | None:
    """A structure a template builds; one none builds is said back with what is built."""
    if not c.intents & {"build", "make"}:
        return None
    try:
        built = read_structure(c.ask.says, c.mc_version)
    except StructureError as e:
        return whole(c.ask, QUOTED_CLAUSE.sub("", str(e)))  # the error names the clause, which the line shows
    if built is None:
        return None
    c.ask.preps.clear()  # "across the gap", "around the chest": the structure's own words
    return Read([built])


def _standing_on(c: Clause) -> Read | None:
    onto = c.ask.prep("onto")
    if onto is not None and c.intents & {"stand", "climb", "go", "get", "seek", "place"} and \
            not c.intents & {"store"} or c.ask.verb in ("mount",) and onto is not None:
        return stand_on(c.ask, onto, c.context, c.mc_version)
    return None


def _rising(c: Clause) -> Read | None:
    return rise(c.ask) if c.ask.height is not None else None


def _getting_out(c: Clause) -> Read | None:
    return get_out(c.ask, c.context) if gets_out(c.ask, set(c.intents)) else None


def _following(c: Clause) -> Read | None:
    if c.intents & {"follow"} or (c.ask.verb in FOLLOW_WITH and with_player(c.ask)):
        return follow(c.ask, c.goal)
    return None


def _storing(c: Clause) -> Read | None:
    """ "put the dirt in the chest", "fill the chest with dirt"."""
    if not c.intents & {"store"}:
        return None
    into = c.ask.prep("into")
    if into is not None and not only_into_kind(c.ask, c.mc_version):
        return store(c.ask, into, c.context, c.mc_version)
    if (fill := filled(c.ask, c.mc_version)) is not None:
        return store(replace(c.ask, objects=[fill[1]]), fill[0], c.context, c.mc_version)
    return None


def _emptying(c: Clause) -> Read | None:
    if c.intents & {"empty"} and not c.ask.prep("into") or any(p.contents for p in c.ask.objects):
        return take_all(c.ask, c.context, c.mc_version)
    return None


def _giving(c: Clause) -> Read | None:
    """ "give alex 3 apples", "hand 3 sticks to Steve"; "give me 3 apples" is getting them."""
    ask = c.ask
    if not c.intents & {"give"}:
        return None
    if len(ask.objects) > 1 and (player := player_of(ask.objects[0], True)) is not None:
        return give(replace(ask, objects=ask.objects[1:]), c.context, c.mc_version, player=player)
    if ask.recipient not in ("me", "us", None, "yourself"):
        return give(ask, c.context, c.mc_version, player=ask.recipient)
    if (to := ask.prep("near")) is not None and (player := player_of(to)) is not None:
        return give(ask, c.context, c.mc_version, player=player)
    return None


def _climbing_nowhere(c: Clause) -> Read | None:
    return whole(c.ask, HOW_HIGH) if c.intents & {"climb"} and not c.intents & {"get", "make", "dig"} else None


def _going(c: Clause) -> Read | None:
    return go_near(c.ask, c.context, c.goal, c.mc_version) if goes_near(c.ask, set(c.intents), c.mc_version) else None


def _using(c: Clause) -> Read | None:
    """ "use the dirt you've got": a way, not a goal; what it names is what "it" means next."""
    if c.intents & {"means"} and not c.ask.wanting:
        remember(c.ask, c.context, c.mc_version)
        return Read()
    return None


def _getting(c: Clause) -> Read | None:
    if c.intents & {"get", "dig", "make", "smelt", "want", "give", "store", "empty"} or c.ask.verb is None:
        return obtain(c.ask, c.context, c.mc_version)
    return None


def _walking_on(c: Clause) -> Read | None:
    """ "walk over and stand beside it": the walk is the way to what follows."""
    return Read() if c.intents & {"go", "stand"} and not (c.ask.objects or c.ask.preps) else None


# In order: a rule before another takes the asks both would read.
RULES: tuple[Callable[[Clause], Read | None], ...] = (
    _sky, _coordinates, _back, _killing, _shearing, _building, _standing_on, _rising, _getting_out, _following,
    _storing, _emptying, _giving, _climbing_nowhere, _going, _using, _getting, _walking_on)
