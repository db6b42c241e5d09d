"""An eval suite: scenarios that each state a goal and a check, the planner's bounds, and the
backends and seeds to run them with. A YAML file (server-config/eval/), validated up front so
that a bad suite stops before any episode starts."""

from __future__ import annotations

import re

from pathlib import Path
from typing import Any

from pydantic import Field, field_serializer, field_validator, model_validator

from agent.checks import Check, parse_check
from agent.checks.model import Plan
from agent.config.layers import StrictModel, load_model_file
from agent.errors import ConfigError
from agent.mc.names import Item
from agent.mc.transform import Transform
from agent.planner import PlannerOptions
from agent.server import Scenario, load_scenario
from agent.session.team import Team


# A row's name is its goal's first words as the reader of Step 18 split them ("oak wood" read as
# "oak log"), kept so that tables of earlier runs name the same rows.
_ROW_WORD, _TREE_WORD = re.compile(r"[a-z0-9]+"), re.compile(r"\b([a-z]+) (?:trees?|wood)\b")


class SuiteEntry(StrictModel):
    """One scenario of the suite; `goal` and `success` override the scenario file's own."""

    scenario: str = Field(description="a shipped scenario's name, or a YAML path relative to the suite file")
    goal: str | None = None
    success: Any = Field(None, description="a check (agent/checks); null: the scenario's success key")
    judge: Any = Field(None, description="a check the world decides after the run, never shown to the planner, "
                                         "which then reads the goal's words for its own (agent/goals)")

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"scenario": data} if isinstance(data, str) else data


class NotRun(StrictModel):
    """A task of a peer's file that this runtime does not run, and why (agent/eval/mindcraft.py)."""

    name: str
    reason: str


class Suite(StrictModel):
    name: str
    description: str = ""
    llm: list[str] = Field(default_factory=list, description="backends to run when the command names none")
    seeds: int = Field(1, ge=1, le=100, description="seeds 0..N-1 per scenario and backend, unless --seeds says")
    planner: PlannerOptions = PlannerOptions()
    scenarios: list[SuiteEntry] = Field(min_length=1)
    not_run: list[NotRun] = Field(default_factory=list, description="a task file's tasks left out, with why")


class Task(StrictModel):
    """A suite entry resolved: the scenario as written (seed 0), its goal and its check."""

    name: str
    source: str = Field(description="what load_scenario takes: a name or an absolute path")
    goal: str
    check: Check | None = Field(None, description="given to the planner; None: read from the goal's words")
    judge: Check | None = Field(None, description="read after the run only; the episode's success when given")
    inventory: list[Item] | None = Field(None, description="carried at join instead of the scenario's own")
    timeout_s: float | None = Field(None, gt=0, description="the episode's bound instead of --episode-timeout")
    build: Plan | None = Field(None, description="a construction task's every cell, air included, scored after the "
                                                "run as Mindcraft scores it (agent/blueprint/score.py)")
    team: Team | None = Field(None, description="bots that share the goal, each with its own inventory and denied "
                                              "tools; None: one bot")

    # A task crosses to the episode's process as JSON: the check goes in its YAML form, aliases
    # (`outside: {from: ...}`) included, and comes back through the same parser.
    @field_validator("check", "judge", mode="before")
    @classmethod
    def _parse(cls, value: Any) -> Check | None:
        return None if value is None else parse_check(value, "check")

    @field_serializer("check", "judge")
    def _written(self, check: Check | None) -> dict[str, Any] | None:
        return None if check is None else check.as_data()

    @property
    def scored(self) -> Check:
        """What decides the episode: the judge when there is one, else the check given."""
        scored = self.judge or self.check
        assert scored is not None, "a task has a check or a judge (load_suite)"
        return scored

    def scenario(self, seed: int) -> Scenario:
        """The world of one episode: the suite's goal and check in the scenario, then varied by the
        seed, so the check moves with the blocks."""
        written = load_scenario(self.source)
        # Milestones are steps of the scenario's own task: towards its goal, from its own start.
        own = {"goal": self.goal, "success": self.check, "judge": self.judge,
               "milestones": written.milestones_toward(self.goal) if self.inventory is None else [],
               **({"inventory": self.inventory} if self.inventory is not None else {})}
        written = written.model_copy(update=own)
        return written.transformed(seed)

    def built(self, seed: int) -> Plan | None:
        """The cells to score in the world of `seed`: moved as the scenario's blocks and check are."""
        if self.build is None:
            return None
        spawn = load_scenario(self.source).spawn
        turn = Transform.for_seed(seed, spawn.x, spawn.z)
        return self.build if turn.identity else self.build.transformed(turn)


def load_suite(path: Path) -> tuple[Suite, list[Task]]:
    """The suite and its tasks; any missing scenario, goal or check is a ConfigError naming it."""
    if not path.is_file():
        raise ConfigError(f"eval: suite file {path} does not exist")
    suite = load_model_file(Suite, path)
    return suite, [_task(entry, path.parent, n) for n, entry in enumerate(suite.scenarios)]


def _task(entry: SuiteEntry, folder: Path, index: int) -> Task:
    source = entry.scenario
    if source.endswith((".yaml", ".yml")):
        source = str((folder / source).resolve())
    scenario = load_scenario(source)
    where = f"scenarios[{index}] ({scenario.name})"
    goal = entry.goal or scenario.goal
    if not goal:
        raise ConfigError(f"eval: {where}: no goal (give the scenario a goal: key, or the suite entry one)")
    judge = parse_check(entry.judge, f"{where}.judge") if entry.judge is not None else None
    own = parse_check(entry.success, f"{where}.success") if entry.success is not None else None
    # judged: the planner reads the goal's words, never the scenario's check
    check = own if judge is not None else own or scenario.success
    if check is None and judge is None:
        raise ConfigError(f"eval: {where}: no success check (give the scenario a success: key, or the suite entry "
                          "one, or a judge:)")
    return Task(name=_name(scenario.name, goal, judge), source=source, goal=goal, check=check, judge=judge)


def _name(scenario: str, goal: str, judge: Check | None) -> str:
    """A judged task is named by its scenario and its goal's first words: one scenario may hold several asks."""
    if judge is None:
        return scenario
    first = _ROW_WORD.findall(_TREE_WORD.sub(r"\1 log", goal.lower()))[:4]
    return f"{scenario}-{'-'.join(first)}"
