"""A goal said in chat, read as the run would take it: understood (agent/goals), grounded in the
world the bot is in (the nearest chest's cell, the player online, the tree in view), and said
back in the player's words (agent/goals/saying.py). The chat commander (agent/chat) is handed
the reading in words: it sits below the goal reader and knows nothing of checks.

A sub-goal the world cannot ground here (no such player online, no tree in view) is left out
of the run's reading by grounding; here it is not understood, so that the bot asks back
instead of quietly doing less than was asked.
"""

from __future__ import annotations

from collections.abc import Callable

from agent.bridge import BotConnection
from agent.chat.confirm import Reading
from agent.goals import Understanding, ground, read_grounds_for, understand
from agent.goals.saying import answer, say
from agent.goals.understanding import SubGoal, Unread

NOT_HERE = "nothing here to do it with"


def chat_reader(bot: BotConnection | None, mc_version: str | None) -> Callable[[str], Reading]:
    """What the commander reads goals with: `bot`'s world grounds them (None: read as words only)."""
    return lambda words: reading(words, bot, mc_version)


def reading(words: str, bot: BotConnection | None, mc_version: str | None) -> Reading:
    """The goal `words` as the bot reads it in its world, in words."""
    understood = understand(words, mc_version)
    if bot is not None and understood.subgoals:
        understood = in_the_world(understood, bot)
    return in_words(understood)


def in_words(understood: Understanding) -> Reading:
    return Reading(words=understood.goal, understood=say(understood),
                   not_understood=[u.words for u in understood.unread], answer=answer(understood))


def in_the_world(understood: Understanding, bot: BotConnection) -> Understanding:
    """The reading grounded where the bot is, with what grounding left out not understood; as
    read when the world cannot be read now (the bot is dead or gone)."""
    grounds = read_grounds_for(bot, understood.goal, understood)
    if grounds is None:
        return understood
    grounded = ground(understood, grounds)
    left_out = [Unread(words=s.says, why=NOT_HERE) for s in left_out_of(understood.subgoals, grounded.subgoals)]
    return grounded.model_copy(update={"unread": [*grounded.unread, *left_out]})


def left_out_of(read: list[SubGoal], kept: list[SubGoal]) -> list[SubGoal]:
    """The sub-goals of `read` that grounding left out of `kept` (which keeps the others in order,
    their words unchanged); of one added for another (carrying what goes in a chest, whose words
    hold the other's), the other alone."""
    out, rest = [], iter(kept)
    following = next(rest, None)
    for subgoal in read:
        if following is not None and following.says == subgoal.says:
            following = next(rest, None)
        else:
            out.append(subgoal)
    return [s for s in out if not any(o.says != s.says and o.says in s.says for o in out)]
