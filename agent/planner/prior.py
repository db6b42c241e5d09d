"""The runtime's prior over the tools a step offers, and the rule that weighs a model's scores
against it.

The runtime knows most of what a tool choice asks: which tools achieve the sub-goal in focus
(their Skill.md's `achieves:`), which take the arguments its check states, which a team
sub-goal names, which failed on this sub-goal already, and the offer's own order (those given
arguments first, then the achievers, then by how well their words fit). Each offered tool gets a
score from these (Standing.score), and the prior is their softmax.

The rule, SayCan's product tempered by what the model was measured to know:

    combined(tool) ∝ prior(tool) · model(tool) ** weight

where model() is the softmax of the model's `select` scores (mean token log-probabilities) and
`weight` its skill above chance and above the runtime's own order on the choice set
(agent/planner/choice_set.py), 0 to 1. A model at chance weighs nothing and is not asked: the runtime's best is taken, which is the first offer
unless that failed here. A confident model of weight 1 can overrule a weak prior; no model
overrules a decisive one (one tool achieves the sub-goal with the check's arguments, or a team
sub-goal names it), which is taken without a model call.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sglang.lang.choices import ChoicesDecision, ChoicesSamplingMethod

from agent.trace.schema import Choice, OptionScore

# Log-scores, in nats: what each fact the runtime knows adds to a tool's standing. A place down
# the offer costs RANK: the offer's order is the runtime's first word, so with nothing else known
# the prior picks what the first offer picks.
RANK, ACHIEVES, GIVEN, STATED, FAILED = 0.3, 1.0, 1.0, 3.0, 2.0
# The model's weight when nothing measured it but the caller vouches for it (a test's script).
VOUCHED = 1.0


@dataclass(frozen=True)
class Weight:
    """How much the model's scores count in the rule (0 to 1), and why: its measured skill above
    chance and the runtime's order, that nothing measured it, or that the config set it."""

    weight: float
    why: str


@dataclass(frozen=True)
class Standing:
    """What the runtime knows of one offered tool at this step."""

    tool: str
    place: int | None  # in the offer, from 0; None where its order says nothing (the full catalog, alphabetical)
    achieves: bool  # its Skill.md achieves the kind of the sub-goal in focus
    given: bool  # the check states its arguments (given.py), or it takes none and reads the check itself
    stated: bool  # a team sub-goal names it (an ask, a give)
    failed: int  # times it failed on this sub-goal

    def score(self) -> float:
        return (STATED * self.stated + ACHIEVES * self.achieves + GIVEN * self.given
                - FAILED * self.failed - RANK * (self.place or 0))

    def said(self) -> str:
        facts = [("named by the team sub-goal", self.stated), ("achieves the sub-goal", self.achieves),
                 ("given the check's arguments", self.given),
                 (f"failed {self.failed} time{'s' * (self.failed > 1)} on this sub-goal", self.failed > 0)]
        placed = [] if self.place is None else [f"place {self.place + 1} in the offer"]
        return ", ".join([fact for fact, known in facts if known] + placed) or "nothing known"


class Prior:
    """The prior over one step's offered tools, and the choice it makes with a model's scores."""

    def __init__(self, standings: Sequence[Standing], aim: str = ""):
        self.standings = list(standings)
        self.aim = aim  # the sub-goal in focus, described, for the record
        self.p = _softmax([s.score() for s in self.standings])

    @property
    def tools(self) -> list[str]:
        return [s.tool for s in self.standings]

    def best(self) -> str:
        return self.tools[_first_best(self.p)]

    def decisive(self) -> tuple[str, str] | None:
        """(tool, why) for one tool taken unasked, where it has not failed here: the only one a
        team sub-goal names (where it names several, the prior orders them: an ask, then the
        wait), or, with no team sub-goal, the only achiever given the check's arguments (a method
        that reads the check itself counts as given: gather beside mc-collect is a choice)."""
        stated = [s for s in self.standings if s.stated]
        given = [s for s in self.standings if s.achieves and s.given]
        fitting, kind = (stated, "is named by the team sub-goal") if stated else \
            (given, f"achieves {self.aim or 'the sub-goal'} with the check's arguments")
        if len(fitting) == 1 and not fitting[0].failed:
            return fitting[0].tool, f"only {fitting[0].tool} {kind}"
        return None

    def ruling(self, weight: Weight) -> tuple[str, str] | None:
        """(tool, why) when the runtime decides without asking the model; None when the model is asked."""
        if (decided := self.decisive()) is not None:
            return decided
        if weight.weight <= 0:
            return self.best(), f"the model weighs nothing ({weight.why}); the runtime's best"
        return None

    def combine(self, model: Sequence[float], weight: float) -> list[float]:
        """prior · model^weight, normalised, over the tools in order; `model` the model's probabilities."""
        logs = [math.log(p) + weight * math.log(max(q, 1e-12)) for p, q in zip(self.p, model)]
        return _softmax(logs)

    def record(self, by: str, picked: str | None, weight: float, why: str,
               model: Sequence[float] | None = None) -> Choice:
        combined = self.combine(model, weight) if model is not None else None
        options = [OptionScore(tool=s.tool, prior=round(p, 4), why=s.said(),
                               model=None if model is None else round(model[i], 4),
                               combined=None if combined is None else round(combined[i], 4))
                   for i, (s, p) in enumerate(zip(self.standings, self.p))]
        return Choice(by=by, picked=picked, weight=round(weight, 4), why=why, options=options)


class Weighed(ChoicesSamplingMethod):
    """`sgl.select`'s choices_method: the backend's scores combined with the prior by the rule,
    so the text the select writes into the prompt is the combined pick. The model's normalised
    probabilities are kept in the decision's meta_info for the trace."""

    def __init__(self, prior: Prior, weight: float):
        self.prior, self.weight = prior, weight

    def __call__(self, *, choices, normalized_prompt_logprobs, input_token_logprobs, output_token_logprobs,
                 unconditional_token_logprobs=None) -> ChoicesDecision:
        by_tool = dict(zip(choices, normalized_prompt_logprobs))
        model = _softmax([by_tool[tool] for tool in self.prior.tools])
        combined = self.prior.combine(model, self.weight)
        return ChoicesDecision(decision=self.prior.tools[_first_best(combined)], meta_info={"model": model, "combined": combined})


def _first_best(values: Sequence[float]) -> int:
    """Where the largest value is; of equal ones, the first (the offer's order breaks a tie)."""
    return max(range(len(values)), key=lambda i: (values[i], -i))


def _softmax(logs: Sequence[float]) -> list[float]:
    top = max(logs)
    exps = [math.exp(x - top) for x in logs]
    total = sum(exps)
    return [e / total for e in exps]
