"""One episode of an eval as episodes.jsonl keeps it: one JSON object a line, appended and
flushed as each episode ends, so a killed eval loses at most the line being written. What an
episode cost (LLM calls per inner step, where its wall time went, who decided what, refuted
method outcomes) is read from its trace by `trace_costs`."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.blueprint.score import BuildScore
from agent.errors import ConfigError
from agent.trace.schema import (
    Event, LlmCall, MethodEnd, MethodStart, MethodStep, Milestone, OuterStep, RunEnd, RunTotals, ToolCall, ToolResult,
)

EPISODES_FILE = "episodes.jsonl"
# success: the check held. The rest are how the planner's run ended (agent.trace.Outcome), and
# error: the episode could not run (the server, the bot or the scenario failed).
EpisodeOutcome = Literal[
    "success", "failed", "max_steps", "done", "llm_error", "disconnected", "interrupted", "stopped", "error",
]


class DecisionCounts(BaseModel):
    """How many of a run's decisions (each step's tool, args and next: agent.trace.schema.Decisions)
    each decider made, over every step of every plan, outer and inner."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    model: int = Field(0, ge=0, description="the model chose among several options")
    forced: int = Field(0, ge=0, description="one option was left")
    protocol: int = Field(0, ge=0, description="the method's text gave it literally")
    checked: int = Field(0, ge=0, description="a [when: ...] condition read from the result or the world")
    runtime: int = Field(0, ge=0, description="the goal check held, a loop bound was hit")

    @property
    def total(self) -> int:
        return self.model + self.forced + self.protocol + self.checked + self.runtime

    def __add__(self, other: DecisionCounts) -> DecisionCounts:
        names = DecisionCounts.model_fields
        return DecisionCounts(**{name: getattr(self, name) + getattr(other, name) for name in names})


class MilestoneReached(BaseModel):
    """A scenario's milestone as the run's trace records it (agent/session/milestones.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    check: str
    after_s: float = Field(description="seconds since the run started")
    llm_calls: int


class TraceCosts(BaseModel):
    """What a run cost, read from its trace. The times split the main plan's run (`run_s`) into
    LLM calls, tools, and the rest; they add up to it.

    Each top-level step of plan 0 counts once: an outer step's LLM usage already holds its
    method's inner steps, so a method's outer step gives its `llm` and its inner steps' `tool_s`
    (its own `tool_s` is the whole method, LLM calls and planner included). LLM calls made
    inside a tool (an llm tool, a sub-plan) count as LLM, not as tool time as well."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    inner_steps: int = Field(ge=0, description="the main plan's method steps")
    inner_llm_calls: int = Field(ge=0, description="LLM calls those steps made")
    llm_calls_per_inner_step: float | None = Field(description="inner_llm_calls / inner_steps; None without any")
    outer_llm_s: list[float] = Field(description="each outer step's seconds in LLM calls, its method's inner "
                                     "steps included, in order")
    run_s: float = Field(ge=0, description="the main plan's run (run_end), else its steps' when it was cut off")
    llm_s: float = Field(ge=0, description="seconds in LLM calls")
    tool_s: float = Field(ge=0, description="seconds in tools, less LLM calls inside them")
    other_s: float = Field(ge=0, description="run_s less llm_s and tool_s: the planner, each step's start, "
                           "the goal check and surveys outside tools")
    decisions: DecisionCounts
    refuted_outcomes: list[str] = Field(description="methods that ended in an outcome whose checked [when: ...] "
                                        "condition was false (method_end.outcome_holds false)")
    milestones: list[MilestoneReached] = Field(default_factory=list, description="the scenario's milestones reached, "
                                               "in order")


def trace_costs(events: Sequence[Event]) -> TraceCosts:
    """The costs of the run whose trace holds `events` (a cut-off trace gives what it has)."""
    steps = [e for e in events if isinstance(e, OuterStep | MethodStep)]
    outer = {e.outer_step: e for e in steps if isinstance(e, OuterStep) and e.plan == 0}
    inner: dict[int, list[MethodStep]] = {}
    for e in steps:
        if isinstance(e, MethodStep) and e.plan == 0:
            inner.setdefault(e.outer_step, []).append(e)
    methods = set(inner) | {e.outer_step for e in events if isinstance(e, MethodStart) and e.plan == 0}
    llm_s = tool_s = walls = 0.0
    for number, step in outer.items():
        llm_s, walls = llm_s + step.llm.seconds, walls + step.wall_s
        tool_s += sum(e.tool_s for e in inner.get(number, [])) if number in methods else step.tool_s
    for number, group in inner.items():
        if number not in outer:  # a method run on its own, or an outer step the trace was cut off before
            llm_s += sum(e.llm.seconds for e in group)
            tool_s += sum(e.tool_s for e in group)
            walls += sum(e.wall_s for e in group)
    tool_s = max(0.0, tool_s - _llm_inside_tools(events))
    end = next((e for e in events if isinstance(e, RunEnd) and e.plan == 0), None)
    run_s = end.wall_s if end is not None else walls
    plan_inner = [e for group in inner.values() for e in group]
    calls = sum(e.llm.calls for e in plan_inner)
    counts = {name: 0 for name in DecisionCounts.model_fields}
    for step in steps:
        for who in (step.decided.tool, step.decided.args, step.decided.next):
            if who is not None:
                counts[who] += 1
    refuted = [f"{e.method} {e.outcome} at step {e.outer_step}" + (f" of plan {e.plan}" if e.plan else "")
               for e in events if isinstance(e, MethodEnd) and e.outcome_holds is False]
    return TraceCosts(
        inner_steps=len(plan_inner), inner_llm_calls=calls,
        llm_calls_per_inner_step=calls / len(plan_inner) if plan_inner else None,
        outer_llm_s=[round(outer[n].llm.seconds, 3) for n in sorted(outer)], run_s=round(run_s, 3),
        llm_s=round(llm_s, 3), tool_s=round(tool_s, 3), other_s=round(max(0.0, run_s - llm_s - tool_s), 3),
        decisions=DecisionCounts(**counts), refuted_outcomes=refuted,
        milestones=[MilestoneReached(check=e.check, after_s=e.after_s, llm_calls=e.llm_calls)
                    for e in events if isinstance(e, Milestone)],
    )


def _llm_inside_tools(events: Sequence[Event]) -> float:
    """Seconds of the LLM calls made while a tool other than a method was running."""
    running: dict[int, bool] = {}  # call_id -> is it a method
    seconds = 0.0
    for e in events:
        if isinstance(e, ToolCall):
            running[e.call_id] = e.tool_type == "method"
        elif isinstance(e, ToolResult):
            running.pop(e.call_id, None)
        elif isinstance(e, LlmCall) and not all(running.values()):
            seconds += e.latency_s
    return seconds


class EpisodeTimes(BaseModel):
    """Where an episode's time went. The task's time is `task_s`: it starts once the bots stand in
    the world, so a slow server start or model load is the set-up's, never the task's."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    wall_s: float = Field(ge=0, description="seconds, the episode's process until its record (its teardown after)")
    setup_s: float | None = Field(None, ge=0, description="seconds until the bots stood in the world: the server's "
                                  "start, the model's load, the bots' joining; None: they never did")
    task_s: float | None = Field(None, ge=0, description="seconds from then until the run ended, on the clock the "
                                 "task's time bounds; None: the run never started")


class EpisodeRecord(BaseModel):
    """One scenario run once with one seed and one LLM, and what the eval verified."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    suite: str
    scenario: str
    seed: int
    llm: str = Field(description="the backend spec, e.g. random:0")
    goal: str
    check: str = Field(description="the success check, in one line")
    outcome: EpisodeOutcome
    success: bool = Field(description="verified: the check held, whatever the model claimed; with a judge, the "
                                      "judge held")
    final_check: bool | None = Field(description="the check re-evaluated after the run; None if it could not be")
    judged: bool | None = Field(None, description="the hidden judge's verdict after the run; None without a judge")
    refuted: bool = Field(False, description="the run ended success on its own check and the judge refutes it")
    claims: int = Field(ge=0, description="success claims: a model's DONE or a method's non-failing outcome")
    claims_refused: int = Field(ge=0, description="claims the check refused")
    steps: int = Field(ge=0, description="outer steps")
    inner_steps: int = Field(ge=0, description="method steps, over all methods")
    llm_calls: int = Field(ge=0)
    tokens_in: int = Field(ge=0)
    tokens_out: int = Field(ge=0)
    wall_s: float = Field(ge=0, description="seconds, the episode's process until its record (its teardown after)")
    setup_s: float | None = Field(None, ge=0, description="of wall_s, until the bots stood in the world (EpisodeTimes)")
    task_s: float | None = Field(None, ge=0, description="of wall_s, from then until the run ended: what the "
                                 "task's time bounds")
    trace: str | None = Field(description="the run's trace.jsonl")
    reason: str = Field(description="why the episode ended")
    # From the trace (trace_costs); the defaults are those of records written before they were
    # kept, and of episodes that could not run (which keep only their refuted outcomes).
    inner_llm_calls: int = Field(0, ge=0, description="LLM calls made in inner steps")
    llm_calls_per_inner_step: float | None = Field(None, description="inner_llm_calls / inner_steps; None without "
                                                   "inner steps")
    outer_llm_s: list[float] = Field(default_factory=list, description="each outer step's seconds in LLM calls")
    run_s: float | None = Field(None, ge=0, description="the planner's run, seconds; wall_s adds the server's start "
                                "and the bot's connection; None: not known")
    llm_s: float = Field(0.0, ge=0, description="of run_s, in LLM calls")
    tool_s: float = Field(0.0, ge=0, description="of run_s, in tools (less LLM calls inside them)")
    other_s: float = Field(0.0, ge=0, description="of run_s, the rest: the planner, step start-up, checks, surveys")
    decisions: DecisionCounts = Field(default_factory=DecisionCounts, description="who made each decision, over all "
                                      "steps")
    refuted_outcomes: list[str] = Field(default_factory=list, description="methods that ended in an outcome whose "
                                        "checked condition was false")
    rejoins: int = Field(0, ge=0, description="times the bot lost its server and joined again")
    build: BuildScore | None = Field(None, description="a construction task's cells right and wrong after the run, "
                                     "air included, as Mindcraft scores them; None: not a construction task, or "
                                     "the world could not be read")
    deaths: int = Field(0, ge=0, description="times the bot died and was respawned")
    milestones: list[MilestoneReached] = Field(default_factory=list, description="the scenario's milestones reached")
    bots: dict[str, RunTotals] = Field(default_factory=dict, description="a team's episode: each bot's own run by "
                                       "name, in the team's order (the figures above add them up); empty for one bot")

    def name(self) -> str:
        """The episode in a few words, e.g. cave seed 3 llamacpp."""
        return f"{self.scenario} seed {self.seed} {self.llm}"


def read_episodes(path: Path) -> list[EpisodeRecord]:
    """Every record in `path`. A last line that does not parse (cut short by a kill) is skipped;
    a bad line elsewhere, or a missing file, is a ConfigError naming it."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise ConfigError(f"eval: cannot read {path}: {e.strerror}") from None
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(EpisodeRecord.model_validate_json(line))
        except ValidationError as e:
            if number == len(lines) and _truncated(line):
                break
            raise ConfigError(f"eval: {path}:{number}: not an episode record: {_first_error(e)}") from None
    return records


def append_episode(path: Path, record: EpisodeRecord) -> None:
    """Appends `record` as one line and flushes it. A partial last line left by a killed eval is
    cut off first, so the new record starts a line of its own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as file:
        file.truncate(_whole_lines(file))
        file.write(record.model_dump_json().encode("utf-8") + b"\n")
        file.flush()


def _whole_lines(file: BinaryIO) -> int:
    """The length of the file up to and including its last newline."""
    size = file.seek(0, os.SEEK_END)
    if size == 0:
        return 0
    file.seek(size - 1)
    if file.read(1) == b"\n":
        return size
    file.seek(0)  # rare (after a kill), so reading it whole is fine
    return file.read().rfind(b"\n") + 1


def _truncated(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return True
    return False


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]
