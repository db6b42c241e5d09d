"""Intents about where the bot is: by a block or a player, on a block, up to a height, out of a
hole or under the open sky, following a player, keeping out of a block."""

from __future__ import annotations

from agent.checks.model import (All, Avoided, FeetYAtLeast, Ground, NearBlock, Nearness, NearPlayer, PlayerNearness,
                                SkyVisible, StandingOn, StandingOnGround)
from agent.goals.reading.asks import Ask
from agent.goals.reading.lexicon import lexicon
from agent.goals.reading.model import FOLLOW_DISTANCE, NEAR_DISTANCE, OUT_OF_WHERE, Context, Read, phrases_of, whole
from agent.goals.reading.nouns import Phrase, names_in, resolve
from agent.goals.reading.things import player_of, thing_of, unknown
from agent.goals.reading.words import words_of
from agent.goals.understanding import SubGoal

# Verbs that follow a player said after them with "with": "stick with sam", "come with me".
FOLLOW_WITH = frozenset({"stick", "stay", "keep", "tag", "come", "go", "walk", "run", "head", "hang", "be"})
GROUND_WORDS = frozenset({"ground", "floor", "land", "surface"})


def keep_out(ask: Ask, mc_version: str | None) -> Read:
    """ "don't touch the lava", "avoid fire", "never walk into water": the body is never in those
    blocks, whatever the verb."""
    blocks = list(dict.fromkeys(named.name for named, _, _ in names_in(ask.words, "block", mc_version)
                                if len(named.names) == 1))
    if not blocks:
        return whole(ask, "what not to do is read only as a block to keep out of")
    return Read([SubGoal(says=ask.says, check=Avoided(avoided=blocks))])


def gets_out(ask: Ask, intents: set[str]) -> bool:
    """ "get out of the pit", "climb out", "leave the hall": out of somewhere, nothing to take along."""
    if ask.objects and not intents & {"leave"}:
        return False
    source = ask.prep("from")
    return "out" in ask.particles or "leave" in intents or (
        source is not None and bool(intents & {"climb", "go", "get"}) and not source.contents and
        resolve(source.naming, "container")[0] is None)


def goes_near(ask: Ask, intents: set[str], mc_version: str | None) -> bool:
    """Whether the ask is to be by a thing: a verb of going or standing with one after "to"/"by"/
    "next to", or a verb of finding a block (not "find me 3 apples", which asks for them)."""
    if intents & {"go", "stand"} and (ask.prep("near") or ask.prep("into")) and \
            not (ask.objects and intents & {"get", "dig", "make"}):
        return True
    if "seek" in intents and ask.recipient is None and ask.objects:
        phrase = ask.objects[0]
        block, _ = resolve(phrase.naming, "block", mc_version)
        item, _ = resolve(phrase.naming, "item", mc_version)
        return (block is not None or player_of(phrase) is not None) and \
            (phrase.count is None or phrase.count <= 1 or item is None)
    return bool(intents & {"go", "stand"}) and not intents & {"get", "make", "dig"} and bool(ask.objects)


def with_player(ask: Ask) -> bool:
    """ "stick with sam", "stay close to alex": a player after the verb's preposition."""
    return any(player_of(p, following=True) is not None for r, p in ask.preps if r in ("means", "near") and
               not p.definite)


def go_near(ask: Ask, context: Context, goal: str, mc_version: str | None) -> Read:
    """near_block of the place gone to (a block kind), or near_player of a player."""
    phrase = ask.prep("near") or ask.prep("into") or (ask.objects[0] if ask.objects else None)
    if phrase is None:
        return Read()
    player = player_of(phrase)
    if player is not None:
        return Read([near_player(ask.says, player, goal)])
    thing = thing_of(phrase, "block", context, mc_version)
    if thing is None:
        return Read(unread=[unknown(phrase, "block", mc_version)])
    context.things = [thing]
    near = NearBlock(near_block=Nearness(block=thing.named.name, distance=NEAR_DISTANCE))
    return Read([SubGoal(says=ask.says, check=near, kinds=thing.kinds)])


def stand_on(ask: Ask, onto: Phrase, context: Context, mc_version: str | None) -> Read:
    """standing_on the block ("climb onto the stone platform", "stand on top of the gold block")."""
    if any(w.text in GROUND_WORDS for w in onto.naming):  # "stand on the ground outside it"
        return Read([SubGoal(says=ask.says, check=StandingOnGround(standing_on_ground=True))])
    thing = thing_of(onto, "block", context, mc_version)
    if thing is None:
        return Read(unread=[unknown(onto, "block", mc_version)])
    context.things = [thing]
    check = StandingOn(standing_on=Ground(block=thing.named.name))
    return Read([SubGoal(says=ask.says, check=check, kinds=thing.kinds, on_top=True)])


def rise(ask: Ask) -> Read:
    height = ask.height
    assert height is not None
    if "down" in ask.particles or ask.verb in lexicon().dig_verbs:
        return whole(ask, "down to a height: no check says \"at most\"")
    check = FeetYAtLeast(feet_y_at_least=float(height.blocks))
    return Read([SubGoal(says=ask.says, check=check, from_start=height.above == "start",
                         above_ground=height.above == "ground")])


def get_out(ask: Ask, context: Context) -> Read:
    """Out of a hole (the words say the bot is down in one): at the ground's level around."""
    named = [w for p in phrases_of(ask) for w in p.naming]
    if any(set(w.forms()) & set(lexicon().enclosures) for w in named):  # out of a cave or a room: under the sky
        return Read([SubGoal(says=ask.says, check=SkyVisible(sky_visible=True))])
    hole = context.hole or "up" in ask.particles or any(set(w.forms()) & set(lexicon().holes) for w in named)
    if not hole:
        return whole(ask, OUT_OF_WHERE)
    out = All(all=[FeetYAtLeast(feet_y_at_least=0.0), StandingOnGround(standing_on_ground=True)])
    return Read([SubGoal(says=ask.says, check=out, on_ground=True)])


def follow(ask: Ask, goal: str) -> Read:
    player = next((p for ph in phrases_of(ask) if (p := player_of(ph, following=True)) is not None), None)
    if player is None:
        return whole(ask, "follow whom? say a player's name")
    return Read([near_player(ask.says, player, goal, FOLLOW_DISTANCE)])


def near_player(says: str, player: str, goal: str, distance: float = FOLLOW_DISTANCE) -> SubGoal:
    """near_player for a name as written; for a pronoun ("him", "me"), a player the goal names or,
    when one alone is online, that one (grounding decides)."""
    if player.lower() not in lexicon().player_pronouns and player != "them":
        return SubGoal(says=says, check=NearPlayer(near_player=PlayerNearness(name=player, distance=distance)))
    anyone = NearPlayer(near_player=PlayerNearness(name="someone", distance=distance))
    names = [w.written for w in words_of(goal) if 3 <= len(w.text) <= 16 and w.text.isidentifier()]
    return SubGoal(says=says, check=anyone, players=names)

