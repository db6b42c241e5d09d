"""What both loops share: one planner context (the backend, the tools, the trace, the run's
control and goal check) and the frame of the plan running now.

The outer loop (loop.py) and a method's inner loop (method.py) each take a PlanContext;
neither reaches into the other.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from agent.chat.team import Holdings, Message
from agent.checks import Verdict
from agent.infospace.models import preview
from agent.llm import Capabilities, LlmError, Metered
from agent.planner import prompts
from agent.planner.control import RunControl
from agent.planner.loops import StaleWatch
from agent.planner.offer import Catalog, Offer
from agent.planner.prior import VOUCHED, Weight
from agent.tools import Toolbox
from agent.tools.interfaces import ToolContext
from agent.tools.schema import DomainValues
from agent.trace import Outcome, TraceWriter
from agent.trace.schema import DoneClaim

# What reads the goal check in the world now; the session builds it from the bot and the check.
Judge = Callable[[], Verdict]
# A fingerprint of the world around the bot (agent/world/digest.py), None when it cannot be read:
# equal before and after a step, the step changed nothing there. The session builds it.
Digest = Callable[[], "str | None"]
# What each argument domain offers in the world now (agent/planner/domains.py); the session builds it.
Offers = Callable[[], "DomainValues | None"]


@dataclass(frozen=True)
class BodyNews:
    """What happened to the bot since the last step that the runtime has already dealt with: a
    rejoin after a lost connection, a respawn after a death. `said` is the line the model reads."""

    said: str
    rejoined: bool = False
    respawned: bool = False


class Team(Protocol):
    """The bot's team and what players say to it (agent/chat/team.py's BotTeam); the session
    builds it from the bot."""

    def unread(self) -> list[Message]:
        """What players said to the bot since the last reading, oldest first."""

    def holdings(self) -> Holdings | None:
        """What the bot and its teammates carry now; None when it cannot be read."""


class BodyKeeper(Protocol):
    """Keeps the bot in the world between steps (agent/session/keeper.py)."""

    def after_step(self) -> BodyNews | None:
        """Rejoins a bot that lost its server, respawns a dead one; None when nothing happened.
        Raises WorldLost when the bot cannot be brought back."""


# Replies in a row that were empty, did not parse or named nothing valid, before the run ends
# as llm_error: the seed system's own bound.
FORMAT_FAILURES_BOUND = 3
# How much of each unusable reply's problem the run's reason quotes (a reply can be any length).
PROBLEM_CHARS = 160


class FormatWatch:
    """Counts the model's format failures in a row. A usable reply starts the count again; at
    the bound the model is asked nothing more and the next step does not start: a model that
    says nothing usable ends the run, it never chooses by default."""

    def __init__(self) -> None:
        self._failures: list[str] = []

    def saw(self, problem: str | None) -> None:
        """One reply the model was asked for: `problem` is what made it unusable, None if usable."""
        if problem is None:
            self._failures.clear()
        else:
            self._failures.append(problem)

    @property
    def spent(self) -> bool:
        """Whether FORMAT_FAILURES_BOUND replies in a row were unusable: the step in progress asks
        no more, it is only recorded."""
        return len(self._failures) >= FORMAT_FAILURES_BOUND

    def check(self) -> None:
        """Raises LlmError once the watch is spent, saying what the replies were."""
        if self.spent:
            shown = "; ".join(preview(problem, PROBLEM_CHARS) for problem in self._failures)
            raise LlmError(f"the model gave {len(self._failures)} unusable replies in a row ({shown})")


class PlannerOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    max_steps: int = Field(20, ge=1, le=1000, description="outer steps per run")
    method_max_steps: int | None = Field(None, ge=1, le=1000, description="overrides every method's own bound")
    tools: list[str] | None = Field(None, description="what the outer loop may choose; None: as `catalog` says")
    catalog: Catalog = Field("ranked", description="without `tools`: ranked, the tools that fit the goal best; "
                                                   "full, every tool (agent/planner/offer.py)")
    catalog_size: int = Field(6, ge=1, le=64, description="how many tools a ranked catalog offers")
    prompt_growth: int = Field(1700, ge=700, le=1_000_000,
                               description="tokens a plan's prompt may grow past its first; past that the next "
                                           "outer step's prompt starts afresh, with a recap of the steps so far")
    subplan_max_steps: int = Field(8, ge=1, le=1000, description="a sub-plan's bound when its caller gives none")


@dataclass
class Frame:
    """One running plan: the main one, or a sub-plan started by a python tool."""

    plan: int
    goal: str
    offer: Offer
    max_steps: int
    executor: ToolContext
    world: str = ""  # the world-state summary the prompt opens with
    prompt: Any = None  # the SGLang program state: the prompt, growing at its end
    outer_step: int = 0
    task: str = prompts.FIRST_TASK  # the next outer step's NEXT_TASK
    recap: list[str] = field(default_factory=list)  # a line per outer step, for a prompt that starts afresh
    afresh: bool = False  # the outer loop stopped for the prompt to start afresh
    opened_tokens: int | None = None  # the plan's first prompt's size: the system prompt, goal, state and offer
    inner_steps: int = 0
    claims: int = 0
    claims_refused: int = 0
    outcome: Outcome = "failed"
    reason: str = "stopped by an error"
    started: float = field(default_factory=time.perf_counter)
    watch: StaleWatch = field(default_factory=StaleWatch)
    failed: dict[str, int] = field(default_factory=dict)  # failures by tool on the sub-goal in focus (prior.py)

    @property
    def tools(self) -> list[str]:
        """What the outer loop may choose, before any is withheld for a step."""
        return self.offer.tools

    def finish(self, outcome: Outcome, reason: str) -> None:
        self.outcome, self.reason = outcome, reason


@dataclass
class PlanContext:
    backend: Metered
    toolbox: Toolbox
    options: PlannerOptions
    trace: TraceWriter
    control: RunControl = field(default_factory=RunControl)
    formats: FormatWatch = field(default_factory=FormatWatch)
    judge: Judge | None = None  # the main goal's check; None: claims stay unverified
    given: dict[str, dict[str, Any]] = field(default_factory=dict)  # arguments its check states, by tool (given.py)
    body: BodyKeeper | None = None  # None without a world: nothing to keep
    digest: Digest | None = None  # None without a world: no step is known to change nothing
    offers: Offers | None = None  # None without a world: names are the model's (checked when the tool runs)
    team: Team | None = None  # None without a world: no inbox, no teammates
    # How much the model's tool choices count against the runtime's prior (prior.py); the session
    # reads it from what `mcagent llm check` measured (agent/session/model_choosing.py).
    weight: Weight = field(default_factory=lambda: Weight(VOUCHED, "vouched for by its caller"))
    rejoins: int = 0  # in the whole run, sub-plans included
    deaths: int = 0

    def keep_body(self) -> BodyNews | None:
        """After a step's tool ran: the bot brought back if it left or died, and counted."""
        news = self.body.after_step() if self.body is not None else None
        if news is not None:
            self.rejoins += news.rejoined
            self.deaths += news.respawned
        return news

    def holdings(self) -> Holdings | None:
        """What the team carries now; None without a team or when it cannot be read."""
        return self.team.holdings() if self.team is not None else None

    def values(self) -> DomainValues | None:
        """What each argument domain offers in the world now (domains.py); None without a world."""
        return self.offers() if self.offers is not None else None

    def sense(self) -> str | None:
        """The world's fingerprint now; None when unknown."""
        return self.digest() if self.digest is not None else None

    def changed(self, tool: str | None, before: str | None, news: BodyNews | None) -> bool | None:
        """Whether the world around the bot changed during a step of `tool` (`before`: the world's
        fingerprint then); None when unknown, or for a tool that does not act in the world (an
        infospace primitive, an llm tool). A step in which the bot died or was rejoined changed its
        lot, whatever the fingerprint says: respawned where it began, the bot may see what it saw before."""
        if news is not None:
            return True
        spec = self.toolbox.tools.get(tool or "")
        if before is None or spec is None or spec.type in ("primitive", "llm"):
            return None
        after = self.sense()
        return None if after is None else after != before

    @property
    def caps(self) -> Capabilities:
        return self.backend.capabilities

    def stamp(self, frame: Frame, inner_step: int | None = None) -> None:
        """Where the run is, for the tool calls the trace records meanwhile."""
        self.trace.plan, self.trace.outer_step, self.trace.inner_step = frame.plan, frame.outer_step, inner_step

    def goal_decided(self) -> Verdict | None:
        """The check's verdict when it decides the run: it holds now, or it is lost for good (an
        `avoided` block was entered); None when neither, or there is no check. Read after every
        step, in every plan: the world, not the model, ends the run, either way."""
        if self.judge is None:
            return None
        verdict = self.judge()
        return verdict if verdict.holds or verdict.lost else None

    def claim(self, frame: Frame, by: Literal["model", "method", "world"], method: str | None = None,
              verdict: Verdict | None = None) -> Verdict | None:
        """Judges a claim that the goal is reached (with `verdict` when it was just read) and
        records it; None when there is no check."""
        if verdict is None and self.judge is not None:
            verdict = self.judge()
        detail = verdict.detail if verdict is not None else "unverified: no check"
        holds = verdict.holds if verdict is not None else None
        accepted = by == "world" or (by == "model" and holds is not False)
        self.trace.add(DoneClaim(plan=frame.plan, outer_step=frame.outer_step, by=by, method=method, holds=holds,
                                 detail=detail, accepted=accepted))
        return verdict
