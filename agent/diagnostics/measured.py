"""A backend measured on a named set of asks, each with an answer written by a person: each case
is right (it read the answer), wrong (it read something else, or anything where the answer is
none) or none (it read nothing where an answer was expected). What the model reads for a run is
used only when its set's figures reach the mark (agent/session/model_reading.py).

Why wrong weighs more than none: a wrong reading becomes a check the world then "verifies"
(walk over to the pond read as has_item cobblestone); none leaves the run without a check, which
never ends `success`. So the mark asks for few wrong readings, not only many right ones.

The set's cases and how one is read are the set's own (agent/planner/reading_set.py for the
goal reading); this module scores them, the same for every set.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

# The named sets: `reading`, words read into a check (agent/planner/reading_set.py); `choices`,
# tools chosen at steps of the suites' runs (agent/planner/choice_set.py).
READING, CHOICES = "reading", "choices"
# How sure the choices' weight must be that the model beats chance: the lower end of the 95 %
# Wilson interval of its share right is what counts.
Z95 = 1.96

# The mark: at least this share of the cases right, and at most this share wrong.
RIGHT_AT_LEAST, WRONG_AT_MOST = 0.90, 0.02
MARK = f"{RIGHT_AT_LEAST:.0%} right, at most {WRONG_AT_MOST:.0%} wrong".replace("%", " %")

Outcome = Literal["right", "wrong", "none"]
Case = TypeVar("Case")


class CaseScore(BaseModel):
    """One ask: the answer written for it, what the backend read, and how that scores."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    ask: str
    expected: str = Field(description="the answer in a line (has_item oak_log 3), or none")
    read: str = Field(description="what the backend read, in a line, or none")
    outcome: Outcome


class SetScore(BaseModel):
    """A set's figures on one backend, and whether they reach the mark. The counts are kept (a
    record is read by people too) and must agree with the cases: a record edited by hand into
    disagreeing is refused, not believed."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    set: str = Field(description="the set's name: reading")
    set_sha256: str = Field(description="the set (and its reader) measured: another digest is another set")
    seconds: float
    measured_at: str = Field(description="when, UTC, ISO 8601")
    right: int
    wrong: int
    none: int
    qualifies: bool = Field(description=f"at least {RIGHT_AT_LEAST:.0%} right and at most {WRONG_AT_MOST:.0%} wrong")
    chance: float | None = Field(None, ge=0, le=1, description="a set of choices: the share a uniform pick "
                                                               "gets right, on average")
    first_offer: float | None = Field(None, ge=0, le=1, description="a set of choices: the share the first tool "
                                                                    "offered gets right (the runtime's order alone)")
    cases: list[CaseScore]

    @model_validator(mode="after")
    def _agrees(self) -> SetScore:
        counted = {o: sum(c.outcome == o for c in self.cases) for o in ("right", "wrong", "none")}
        if counted != {"right": self.right, "wrong": self.wrong, "none": self.none}:
            raise ValueError(f"the counts {self.right}/{self.wrong}/{self.none} do not match its cases "
                             f"({counted['right']}/{counted['wrong']}/{counted['none']})")
        if self.qualifies != meets_mark(self.right, self.wrong, len(self.cases)):
            raise ValueError(f"qualifies: {self.qualifies} does not follow from its counts")
        return self

    @property
    def right_share(self) -> float:
        return self.right / len(self.cases) if self.cases else 0.0

    @property
    def wrong_share(self) -> float:
        return self.wrong / len(self.cases) if self.cases else 0.0


class SetRun(BaseModel):
    """A named set as `mcagent llm check` ran it: its score, or why there is none; and the record
    it was kept in (agent/diagnostics/measurements.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    set: str
    score: SetScore | None = None
    not_run: str = Field("", description="why there is no score: the backend cannot serve, it failed mid-set, "
                                         "the set file is malformed")
    record: str | None = Field(None, description="the record's path")


def choice_weight(score: SetScore) -> float:
    """The model's weight in the rule (agent/planner/prior.py): how far it chooses above what it
    would add to, chance or the runtime's order alone (the first offer), whichever is right more
    often: 0 at or below it, or not surely above; 1 always right. The lower end of the 95 %
    interval of its share right is taken, so a lucky few cases do not buy weight."""
    floor = max(score.chance or 0.0, score.first_offer or 0.0)
    if score.chance is None or not score.cases or floor >= 1:
        return 0.0
    n, share = len(score.cases), score.right_share
    centre = (share + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    spread = Z95 * math.sqrt(share * (1 - share) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return round(max(0.0, (centre - spread - floor) / (1 - floor)), 4)


def meets_mark(right: int, wrong: int, total: int) -> bool:
    """At least RIGHT_AT_LEAST of the cases right and at most WRONG_AT_MOST wrong; no cases, never."""
    return total > 0 and right / total >= RIGHT_AT_LEAST and wrong / total <= WRONG_AT_MOST


def score_of(name: str, digest: str, cases: list[CaseScore], seconds: float) -> SetScore:
    counts = {o: sum(c.outcome == o for c in cases) for o in ("right", "wrong", "none")}
    return SetScore(set=name, set_sha256=digest, seconds=round(seconds, 3),
                    measured_at=datetime.now(timezone.utc).isoformat(timespec="seconds"), **counts,
                    qualifies=meets_mark(counts["right"], counts["wrong"], len(cases)), cases=cases)


def outcome(read: object | None, expected: object | None) -> Outcome:
    """How one reading scores against its answer (None: no check read, or the answer none).
    Equality is the caller's: the checks' YAML forms, so has_item is its name and count."""
    if read is None:
        return "right" if expected is None else "none"
    return "right" if read == expected else "wrong"


def measure(name: str, digest: str, cases: Sequence[Case], read: Callable[[Case], CaseScore]) -> SetScore:
    """Every case read in order, timed. A backend error (LlmError) is not caught: a set that could
    not be read to its end says nothing of the model."""
    started = time.perf_counter()
    scores = [read(case) for case in cases]
    return score_of(name, digest, scores, time.perf_counter() - started)


def figures(score: SetScore) -> str:
    """`31/50 right (62 %), 12 wrong (24 %), 7 none`."""
    total = len(score.cases)
    return (f"{score.right}/{total} right ({_percent(score.right_share)}), {score.wrong} wrong "
            f"({_percent(score.wrong_share)}), {score.none} none")


def shares(score: SetScore) -> str:
    """`62 % right, 24 % wrong`: why a set is below the mark, in a few words."""
    return f"{_percent(score.right_share)} right, {_percent(score.wrong_share)} wrong"


def _percent(share: float) -> str:
    return f"{share * 100:.0f} %"
