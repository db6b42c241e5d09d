"""Asking back: a goal said in chat that the bot understood only in part is not done at once.
The bot says what it understood and what not, and waits for the player's answer: "yes" runs
what was understood, "no" drops it, a new wording is read again, and silence for ANSWER_WAIT_S
drops it too. One question waits per player; a new one from the same player replaces it.

What a goal means is the reader's business (agent/goals, below which this package sits): the
commander is handed a reading in words (Reading), made by agent/session/chat_goals.py. The
clock is a parameter, so that the wait can be tested without waiting.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# How long a question waits for its player's answer: time to read it and type a line.
ANSWER_WAIT_S = 60.0
# Lines that answer a question, whole: each word one of these, with one yes or one no among them
# ("yes", "ok go ahead", "sure thanks", "no", "never mind").
YES = frozenset({"yes", "y", "ok", "okay", "go", "sure", "yep", "yeah"})
NO = frozenset({"no", "n", "nope", "nah", "cancel", "never", "nevermind"})
FILLER = frozenset({"please", "ahead", "thanks", "thank", "you", "then", "mind", "do", "it"})
WORD = re.compile(r"[a-z']+")
ASK_AGAIN = "say yes to go, or say it another way"

Extent = Literal["all", "partly", "nothing"]


class Reading(BaseModel):
    """A goal said in chat as the bot read it, in words a player reads."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    words: str = Field(description="the goal as said")
    understood: str = Field("", description="what the bot would do, in the player's words: get 3 oak logs")
    not_understood: list[str] = Field(default_factory=list, description="the words it did not understand")
    answer: str = Field(description="the whole answer: I'd get 3 oak logs; I don't know what 'the shed' is")
    failure: str = Field("", description="why reading failed, when it did (then nothing was understood)")

    @property
    def extent(self) -> Extent:
        if not self.understood:
            return "nothing"
        return "partly" if self.not_understood else "all"


def taken_as_said(words: str) -> Reading:
    """The reading of a commander given no reader: every goal understood as said (as `!goal` was
    before the bot could ask back)."""
    return Reading(words=words, understood=words, answer=f"I'll {words}")


def reply_to_question(text: str) -> Literal["yes", "no"] | None:
    """Whether a line says yes or no to a question; None for anything else (a new wording)."""
    words = set(WORD.findall(text.lower()))
    if not words or not words <= YES | NO | FILLER:
        return None
    said_yes, said_no = bool(words & YES), bool(words & NO)
    if said_yes == said_no:  # neither, or both ("yes no"): not an answer
        return None
    return "yes" if said_yes else "no"


def addressed(text: str, username: str) -> str | None:
    """The rest of a chat line that starts with the bot's name ("scout, get me 3 logs", "scout get
    me 3 logs", "@scout: ..."); None when it does not, or says nothing after it."""
    found = re.match(rf"@?{re.escape(username)}\b[\s,:;.!-]*(.*)$", text.strip(), re.IGNORECASE | re.DOTALL)
    if found is None or not found.group(1).strip():
        return None
    return found.group(1).strip()


def question(player: str, reading: Reading) -> str:
    """What the bot asks: "alex: I'd get 3 oak logs; I don't know what 'dance' is; say yes to go,
    or say it another way"."""
    return f"{player}: {reading.answer}; {ASK_AGAIN}"


def timed_out(player: str) -> str:
    return f"{player}: no answer in {ANSWER_WAIT_S:g} s: I'm not doing it"


def declined(player: str) -> str:
    return f"{player}: ok, I'm not doing it"


@dataclass(frozen=True)
class Question:
    """A reading waiting for its player's answer until `deadline` (on the Questions' clock)."""

    player: str
    reading: Reading
    deadline: float


class Questions:
    """The questions waiting for an answer, one per player. Used from one thread only (the
    commander's), so it takes no lock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, wait_s: float = ANSWER_WAIT_S):
        self._clock, self._wait_s = clock, wait_s
        self._waiting: dict[str, Question] = {}

    def ask(self, player: str, reading: Reading) -> Question:
        """Waits for `player`'s answer to `reading`, in place of any question they had."""
        asked = Question(player, reading, self._clock() + self._wait_s)
        self._waiting[player] = asked
        return asked

    def waiting(self, player: str) -> Question | None:
        """The question `player` has not answered yet, if any (one past its deadline is not)."""
        asked = self._waiting.get(player)
        return asked if asked is not None and self._clock() < asked.deadline else None

    def take(self, player: str) -> Question | None:
        """The question `player` answered, no longer waiting; None when none waits (one past its
        deadline is left for expired(), which says so)."""
        asked = self.waiting(player)
        if asked is not None:
            del self._waiting[player]
        return asked

    def expired(self) -> list[Question]:
        """The questions whose wait ran out, no longer waiting; oldest first."""
        now = self._clock()
        gone = sorted((q for q in self._waiting.values() if now >= q.deadline), key=lambda q: q.deadline)
        for asked in gone:
            del self._waiting[asked.player]
        return gone
