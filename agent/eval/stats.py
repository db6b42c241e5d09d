"""Success rates with Wilson intervals, and the other figures of an eval, per scenario and LLM."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import median

from pydantic import BaseModel, ConfigDict, Field

from agent.eval.records import EpisodeRecord

ALL = "ALL"  # the scenario of the rows over every scenario


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of successes/n (95% for z = 1.96), as fractions. n = 0 says
    nothing: (0, 1). Unlike p ± z·se it stays inside [0, 1] and is not empty at 0/n or n/n."""
    if n == 0:
        return 0.0, 1.0
    p, zz = successes / n, z * z
    centre = (p + zz / (2 * n)) / (1 + zz / n)
    half = z * math.sqrt(p * (1 - p) / n + zz / (4 * n * n)) / (1 + zz / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


class Row(BaseModel):
    """One (scenario, llm) group's figures. Rates are fractions; steps count outer and inner."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    scenario: str
    llm: str
    episodes: int
    successes: int
    rate: float
    ci_low: float = Field(description="Wilson 95% interval, low end")
    ci_high: float
    claims: int = Field(description="DONE claims the model made")
    claims_refused: int = Field(description="claims the check refused")
    false_claim_rate: float | None = Field(description="refused / claims; None without claims")
    false_successes: int = Field(description="episodes counted a success that the final check refused")
    median_steps: float
    median_llm_calls: float
    median_wall_s: float
    errors: int = Field(description="episodes that could not run")


def summarize(records: Sequence[EpisodeRecord]) -> list[Row]:
    """A row per (scenario, llm), scenarios then LLMs in first-seen order, then an ALL row per LLM."""
    groups: dict[tuple[str, str], list[EpisodeRecord]] = {}
    for record in records:
        groups.setdefault((record.scenario, record.llm), []).append(record)
    llms = list(dict.fromkeys(record.llm for record in records))
    scenarios = list(dict.fromkeys(record.scenario for record in records))
    rows = [_row(scenario, llm, groups[scenario, llm]) for scenario in scenarios for llm in llms
            if (scenario, llm) in groups]
    return rows + [_row(ALL, llm, [r for r in records if r.llm == llm]) for llm in llms]


def _row(scenario: str, llm: str, group: list[EpisodeRecord]) -> Row:
    successes = sum(r.success for r in group)
    claims, refused = sum(r.claims for r in group), sum(r.claims_refused for r in group)
    low, high = wilson(successes, len(group))
    return Row(
        scenario=scenario, llm=llm, episodes=len(group), successes=successes, rate=successes / len(group),
        ci_low=low, ci_high=high, claims=claims, claims_refused=refused,
        false_claim_rate=refused / claims if claims else None,
        false_successes=sum(r.success and r.final_check is False for r in group),
        median_steps=_median(group, lambda r: r.steps + r.inner_steps),
        median_llm_calls=_median(group, lambda r: r.llm_calls),
        median_wall_s=_median(group, lambda r: r.wall_s),
        errors=sum(r.outcome == "error" for r in group),
    )


def _median(group: list[EpisodeRecord], figure: Callable[[EpisodeRecord], float]) -> float:
    return float(median(figure(r) for r in group))
