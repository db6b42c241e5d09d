"""What the outer loop offers the model for a goal: the tools it may choose, and the how-to text
that goes with them.

- named: the tools a user or a suite named (`--tools`, a suite's `tools:`), as given;
- full: every tool that is an action (for models that can read a long catalog);
- ranked, the default: the `catalog_size` tools that fit the goal best by their Skill.md text
  (agent/tools/ranking.py), coarse tools (methods and skills) weighed above single world
  actions, and the infospace primitives only for a goal about notes. The tools whose
  arguments the run's goal check states (agent/planner/given.py: a blueprint for mc-build)
  come first when their words fit the goal at all: the check says what the goal wants more
  surely than the words shared. Where tools achieve the sub-goal in focus, only they are
  offered, and the search (a tool that finds a block, taking nothing it must be told: mc-explore)
  for when the thing is not in view: a step off the goal is no step towards it.

Instruction tools are never actions: the seed makes them text added to the planner's context.
The ones that fit the goal (or the named ones) are shown once, as GUIDANCE, and never offered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from agent.planner import prompts
from agent.planner.prior import Prior
from agent.tools import Toolbox, ToolSpec, catalog_text
from agent.tools.catalog import ranked_catalog_text
from agent.tools.frontmatter import CORE_SOURCE
from agent.tools.loader import SKILLS_SOURCE
from agent.tools.ranking import ToolIndex
from agent.tools.schema import DomainValues
from agent.trace.schema import CatalogKind

Catalog = Literal["ranked", "full"]
# How much more a tool that does a whole job (a method, a skill) counts than one world action.
COARSE_WEIGHT = 1.5
# A ranked catalog offers at least this many tools, filled up with coarse ones when fewer fit.
MIN_OFFERED = 4
# What a search finds: a block. A search tool achieves it and needs no argument (it explores for
# the check in focus), so it can follow any achiever that found nothing in reach.
SEARCH_KIND = "near_block"
# At most this many instruction tools are added as guidance, the best fitting first.
GUIDANCE_MAX = 2
# A goal about notes: only then are the infospace primitives offered in a ranked catalog.
NOTES_GOAL = re.compile(r"\b(notes?|collections?|remember\w*|memo\w*|sav(e|ed|es|ing)|record\w*|write down|jot)\b",
                        re.IGNORECASE)


class Offer(BaseModel):
    """The tools a plan may choose, how they were chosen, and the instruction tools shown as guidance."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    catalog: CatalogKind
    tools: list[str]
    guidance: list[str] = []


@dataclass(frozen=True)
class StepOffer:
    """What one outer step offers: the tools callable now, what each argument domain holds in the
    world (None without one), the arguments the check states, by tool (None in a sub-plan), and
    the runtime's prior over the tools (prior.py)."""

    tools: list[str]
    values: DomainValues | None
    given: dict[str, dict[str, Any]] | None
    prior: Prior | None = None


def offer_text(offer: Offer, toolbox: Toolbox) -> str:
    """What the prompt says of an offer: the guidance of its instruction tools, then the catalog
    of the tools it offers (a ranked one in rank order, the best fit first)."""
    tools = toolbox.tools
    guidance = "".join(prompts.GUIDANCE.format(name=name, text=tools[name].body) for name in offer.guidance)
    if offer.catalog == "ranked":
        catalog = ranked_catalog_text([tools[name] for name in offer.tools])
    else:
        catalog = catalog_text(Toolbox(tools={name: tools[name] for name in offer.tools}))
    return prompts.OFFER.format(guidance=guidance, catalog=catalog)


def is_action(spec: ToolSpec) -> bool:
    """Whether the model may choose the tool as a step: any visible tool but an instruction."""
    return not spec.hidden and spec.type != "instruction"


class Offering:
    """Chooses the offer for each goal of a run; the toolbox is indexed once, on first use."""

    def __init__(self, toolbox: Toolbox, catalog: Catalog, size: int):
        self.toolbox, self.catalog, self.size = toolbox, catalog, size
        self._index: ToolIndex | None = None

    def for_goal(self, goal: str, named: list[str] | None = None, first: list[str] | None = None,
                 among: list[str] | None = None, stated: list[str] | None = None) -> Offer:
        """The offer for `goal`: the `named` tools as given, or the `stated` ones in their order
        (a team sub-goal's: ask a teammate, hand over) ahead of the catalog's, or the catalog; a ranked one puts the
        tools in `first` (those the goal check gives arguments to) ahead, best fitting first, and
        holds only the tools in `among` (the check's achievers), and the search, when there are
        any: what the check asks says more surely than the words which tools serve the goal."""
        tools = self.toolbox.tools
        if named:
            return Offer(catalog="named", tools=[n for n in named if is_action(tools[n])],
                         guidance=[n for n in named if tools[n].type == "instruction"])
        if stated:  # then the check's own, for when the stated ones are spent (withheld as stale)
            rest = self.for_goal(goal, first=first, among=among).tools
            return Offer(catalog=self.catalog, tools=list(dict.fromkeys([n for n in stated if is_action(tools[n])] + rest)))
        scores = self._scores(goal)
        guidance = sorted((n for n in scores if tools[n].type == "instruction"), key=lambda n: -scores[n])
        actions = sorted(n for n, spec in tools.items() if is_action(spec))
        if self.catalog == "ranked":
            held = [n for n in actions if n in (among or [])]
            if held:
                actions = held + [n for n in actions if self._searches(n) and n not in held]
            actions = self._ranked(goal, actions, scores, first or [], among or [])
        return Offer(catalog=self.catalog, tools=actions, guidance=guidance[:GUIDANCE_MAX])

    def _ranked(self, goal: str, actions: list[str], scores: dict[str, float], first: list[str],
                achieving: list[str]) -> list[str]:
        """The best fitting `size` actions: those in `first` (the tools the check gives arguments
        to) ahead, then those `achieving` its kind (mc-approach, given the block, before mc-explore
        for near_block), then the rest; where fewer than MIN_OFFERED fit at all, the coarse ones
        fill up (a goal no tool's words fit still gets whole jobs)."""
        about_notes = NOTES_GOAL.search(goal) is not None
        candidates = [n for n in actions if about_notes or self.toolbox.tools[n].source != CORE_SOURCE]
        weight = {n: COARSE_WEIGHT if _coarse(self.toolbox.tools[n]) else 1.0 for n in candidates}
        fitting = sorted((n for n in candidates if n in scores), key=lambda n: (-scores[n] * weight[n], n))
        filling = sorted((n for n in candidates if n not in scores), key=lambda n: (-weight[n], n))
        ranked = fitting + filling[: max(0, MIN_OFFERED - len(fitting))]
        # a given tool or an achiever whose words do not fit the goal stays out
        ahead = [n for n in fitting if n in first] + [n for n in fitting if n in achieving]
        return list(dict.fromkeys(ahead + ranked))[: self.size]

    def _searches(self, name: str) -> bool:
        """Whether the tool finds a block, told nothing (mc-explore explores for the check in focus)."""
        spec = self.toolbox.tools[name]
        schema = spec.schema_hint
        return SEARCH_KIND in spec.achieves and (schema is None or not schema.required)

    def _scores(self, goal: str) -> dict[str, float]:
        if self._index is None:
            self._index = ToolIndex(spec for spec in self.toolbox.tools.values() if not spec.hidden)
        return self._index.scores(goal)


def _coarse(spec: ToolSpec) -> bool:
    """A tool that does a whole job: a method, or a skill (skills/, --tools-dir), not one world action."""
    return spec.type == "method" or spec.source == SKILLS_SOURCE
