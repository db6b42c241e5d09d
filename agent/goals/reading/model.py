"""What reading a goal's clauses keeps: the thing a clause is about (with how many and how the
world counts it), what the clauses read so far tell the next ("them"), and what one clause reads
(its sub-goals and the words it did not understand); and the distances a check read from words
allows."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.goals.reading.asks import Ask
from agent.goals.reading.nouns import Named, Phrase
from agent.goals.reading.words import Word
from agent.goals.understanding import CountOf, SubGoal, Unread

NEAR_DISTANCE = 2.0  # beside the block (1.1 from its centre) or on it
FOLLOW_DISTANCE = 3.0  # mc-follow keeps 2 by default; a step behind still counts
RETURN_DISTANCE = 2.0  # back where it started: within two blocks of the spawn point
CONTAINERS = frozenset({"chest", "barrel", "trapped_chest", "shulker_box", "ender_chest"})
WORKSTATIONS = frozenset({"furnace", "crafting_table", "smoker", "blast_furnace", "campfire"})
TREE_HEADS = frozenset({"tree", "trees", "trunk"})
OUT_OF_WHERE = "out of where? say \"to open sky\" or \"out of this hole\""
HOW_HIGH = "how high? say \"3 blocks higher\", \"to y 80\" or \"4 blocks off the ground\""


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

    @property
    def kinds(self) -> list[str]:
        """A kind's names, for SubGoal.kinds (the world picks the one); none for one thing."""
        return list(self.named.names) if self.named.kind else []


@dataclass
class Context:
    """What the clauses read so far tell the next: the things the last one named ("them")."""

    things: list[Thing] = field(default_factory=list)
    hole: bool = False  # the words say the bot is down in something


@dataclass
class Read:
    """A clause's sub-goals and unread words."""

    subgoals: list[SubGoal] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    amends: bool = False  # a count for the sub-goal before ("4 should do")


def whole(ask: Ask, why: str = "") -> Read:
    return Read(unread=[Unread(words=ask.says, why=why)])


def phrases_of(ask: Ask) -> list[Phrase]:
    """Every phrase of the clause: its objects, then those after its prepositions."""
    return [*ask.objects, *(p for _, p in ask.preps)]

