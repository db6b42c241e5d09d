"""Success rates with Wilson intervals, and the other figures of an eval, per scenario and LLM."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import median

from pydantic import BaseModel, ConfigDict, Field

from agent.eval.records import DecisionCounts, EpisodeRecord

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
    claims: int = Field(description="success claims: a model's DONE (asked only without a check) or a method's outcome")
    claims_refused: int = Field(description="claims the check refused")
    false_claim_rate: float | None = Field(description="refused / claims; None without claims")
    false_successes: int = Field(description="episodes counted a success that the final check refused, or that "
                                             "ended success and the hidden judge refutes")
    median_steps: float
    median_llm_calls: float
    median_wall_s: float
    errors: int = Field(description="episodes that could not run")
    # Where the cost went, over the episodes whose records keep it (older records do not).
    llm_calls_per_inner_step: float | None = Field(
        None, description="LLM calls made in inner steps / inner steps, summed over the group; None without any")
    median_llm_s_per_outer_step: float | None = Field(
        None, description="the median over every outer step of the group of its seconds in LLM calls; None without any")
    llm_share: float | None = Field(None, description="of the planner's run time (summed), in LLM calls")
    tool_share: float | None = Field(None, description="in tools")
    other_share: float | None = Field(None, description="the rest: the planner, step start-up, checks, surveys")
    decisions: DecisionCounts = Field(default_factory=DecisionCounts, description="who made each decision")
    refuted_outcomes: int = Field(0, description="method outcomes whose checked condition was false")


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
        false_successes=sum((r.success and r.final_check is False) or r.refuted for r in group),
        median_steps=_median(group, lambda r: r.steps + r.inner_steps),
        median_llm_calls=_median(group, lambda r: r.llm_calls),
        median_wall_s=_median(group, lambda r: r.wall_s),
        errors=sum(r.outcome == "error" for r in group),
        **_costs(group),
    )


def _costs(group: list[EpisodeRecord]) -> dict:
    """The cost figures of a group: ratios of sums, so that long episodes weigh what they took."""
    counted = [r for r in group if r.llm_calls_per_inner_step is not None]
    inner = sum(r.inner_steps for r in counted)
    timed = [r for r in group if r.run_s]
    run_s = sum(r.run_s or 0.0 for r in timed)
    shares = {f"{part}_share": sum(getattr(r, f"{part}_s") for r in timed) / run_s if run_s else None
              for part in ("llm", "tool", "other")}
    decisions = DecisionCounts()
    for r in group:
        decisions += r.decisions
    outer = [seconds for r in group for seconds in r.outer_llm_s]
    return dict(llm_calls_per_inner_step=sum(r.inner_llm_calls for r in counted) / inner if inner else None,
                median_llm_s_per_outer_step=float(median(outer)) if outer else None,
                decisions=decisions, refuted_outcomes=sum(len(r.refuted_outcomes) for r in group), **shares)


def _median(group: list[EpisodeRecord], figure: Callable[[EpisodeRecord], float]) -> float:
    return float(median(figure(r) for r in group))
