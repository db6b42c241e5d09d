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


from agent.checks.model import HasItem, SkyVisible, StandingOnGround
from agent.goals.reading.asks import Ask, read_clause
from agent.goals.reading.clauses import clauses
from agent.goals.reading.intents import read_intent
from agent.goals.reading.lexicon import contains, lexicon
from agent.goals.reading.model import CONTAINERS, HOW_HIGH, OUT_OF_WHERE, Context, Read, phrases_of, whole
from agent.goals.reading.nouns import Phrase, resolve
from agent.goals.reading.places import keep_out
from agent.goals.reading.things import player_of, thing_of, unknown
from agent.goals.reading.words import words_of
from agent.goals.understanding import SubGoal, Understanding, Unread, left_behind, needs_first
from agent.mc.gamedata import recipes, smelting

MADE_DEPTH = 3  # a later sub-goal uses up an earlier one it is made from this many recipes away
REFLEXIVES = frozenset({"yourself", "myself", "you", "me", "itself", "ourselves"})


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


def _read(ask: Ask, context: Context, goal: str, mc_version: str | None) -> Read:
    """The sub-goals of one clause, by its mood and intent."""
    if ask.mood in ("statement", "question"):
        return _context(ask, context, mc_version)
    if ask.mood == "negated" or "avoid" in ask.intents:
        return keep_out(ask, mc_version)
    read = read_intent(ask, context, goal, mc_version)
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
        if phrase.naming[0].text in ("here", "there") or player_of(phrase) is not None:
            continue
        if resolve(phrase.naming, "any", mc_version)[0] is None:
            out.append(unknown(phrase, "any", mc_version))
    return out


def _context(ask: Ask, context: Context, mc_version: str | None) -> Read:
    """A statement or a question asks nothing, but what it names is what "them" means next."""
    things = [t for p in phrases_of(ask) if (t := thing_of(p, "item", context, mc_version)) is not None]
    if things:  # of "a chest with apples in it", the apples
        context.things = [t for t in things if t.named.name not in CONTAINERS][-1:] or things[-1:]
        return Read()
    if ask.words and ask.words[-1].text in ("done", "finished", "ready") or ask.says.strip() == "":
        return Read()
    if contains(ask.words, lexicon().situation_words):  # "you're stuck down there": where the bot is
        return Read()
    if ask.words and player_of(Phrase(naming=ask.words[:1])) is not None:  # "alex is about to head off"
        return Read()  # about a player, whom "him" then means (near_player's players: the goal's names)
    return whole(ask, "not an ask")


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

