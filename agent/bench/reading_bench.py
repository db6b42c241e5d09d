"""`mcagent bench reading`: the goal reader over the reading corpus (agent/eval/reading_corpus.py),
right / wrong / none for each part (tune, test, Mindcraft's goals), with no server and no model."""

from __future__ import annotations

import time
from collections import Counter

from pydantic import BaseModel, ConfigDict

from agent.eval.reading_corpus import Part, Scored, corpus, score
from agent.eval.tables import text_table

PARTS: tuple[Part, ...] = ("tune", "test", "mindcraft")


class PartFigures(BaseModel):
    """One part's verdicts."""

    model_config = ConfigDict(frozen=True)
    part: Part
    asks: int
    right: int
    wrong: int
    none: int

    def share(self, n: int) -> str:
        return f"{n} ({100 * n / self.asks:.1f} %)" if self.asks else "0"


class ReadingRun(BaseModel):
    model_config = ConfigDict(frozen=True)
    parts: list[PartFigures]
    scored: list[Scored]
    seconds: float


def run(mc_version: str | None = None) -> ReadingRun:
    """Every case read and scored, with the time it took."""
    start = time.perf_counter()
    scored = [score(case, mc_version) for case in corpus()]
    seconds = time.perf_counter() - start
    parts = []
    for part in PARTS:
        verdicts = Counter(s.verdict for s in scored if s.case.part == part)
        parts.append(PartFigures(part=part, asks=sum(verdicts.values()), right=verdicts["right"],
                                 wrong=verdicts["wrong"], none=verdicts["none"]))
    return ReadingRun(parts=parts, scored=scored, seconds=seconds)


def table(found: ReadingRun) -> str:
    rows = [[p.part, str(p.asks), p.share(p.right), p.share(p.wrong), p.share(p.none)] for p in found.parts]
    return text_table(["part", "asks", "right", "wrong", "none"], rows)


def listing(found: ReadingRun, verdicts: set[str], parts: set[str]) -> str:
    """The cases with those verdicts in those parts: the ask, what it means, what was read."""
    lines = []
    for s in found.scored:
        if s.verdict in verdicts and s.case.part in parts:
            lines.append(f"{s.verdict:5} {s.case.part}/{s.case.family}: {s.case.ask!r}\n"
                         f"      expected {s.case.expect}\n      read     {s.got}")
    return "\n".join(lines)
