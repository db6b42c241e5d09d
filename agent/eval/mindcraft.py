"""A Mindcraft task file read as it is written (kolbytn/mindcraft, tasks/*.json): an object of
tasks by name, each with a goal, an initial inventory, an agent count, a type and a timeout, and
a target item or a blueprint. Each single-agent `techtree` task becomes an episode in the resource
patch (server-config/scenarios/resource-patch.yaml: trees, stone, iron and coal ore near the
spawn, for tasks that expect a natural world): the initial inventory given at join, the check
`has_item {name: target, count: number_of_target}`, the timeout its time in the world. A
multi-agent techtree task runs a team (agent/session/team.py): a bot per agent, each with its
own inventory and the tools its blocked commands map to denied (DENIED_TOOLS), reached when any
bot holds the target, as Mindcraft judges it. Each
`construction` task becomes an episode on the flat field (flat.yaml), a team's when it has several
agents (each bot holding its agent's share of the materials): its blueprint
(agent/blueprint/mindcraft.py) moved from Mindcraft's superflat world, whose first air layer is
y=-60, to ours, whose first is y=5, in front of the spawn (agent/blueprint/site.py); the check
a blueprint check of its blocks by name, as Mindcraft scores, and every cell, air included,
scored after the run (agent/blueprint/score.py). Others are listed as not run, with why."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.blueprint.mindcraft import blueprint_of
from agent.blueprint.score import every_cell
from agent.blueprint.site import in_front
from agent.checks import parse_check
from agent.checks.model import Blueprint, Cell
from agent.errors import ConfigError
from agent.eval.suite import NotRun, Suite, SuiteEntry, Task
from agent.mc.aliases import item_id
from agent.mc.names import Item
from agent.server import load_scenario
from agent.session.team import MAX_BOTS, Team, Teammate

PATCH = "resource-patch"
SITE = "flat"  # where construction tasks build: an open superflat field, the spawn facing south
MINDCRAFT_FIRST_AIR_Y = -60  # their superflat world's first layer above the ground
SITE_FIRST_AIR_Y = 5  # ours (flying-squid's superflat: bedrock, three dirt, grass at y=4)
RUN_TYPES = {"techtree", "construction"}
AGENT = "agent"  # a team task's bots are agent0, agent1, ...: Mindcraft's agent indices
# Mindcraft's commands a task may deny an agent, and the tools they are here. !getCraftingPlan
# hands the model a recipe tree; no tool does that here (mc-craft makes the intermediates
# itself), so denying it denies nothing: such tasks are easier here than in Mindcraft.
DENIED_TOOLS: dict[str, list[str]] = {
    "!collectBlocks": ["mc-collect"],
    "!craftRecipe": ["mc-craft"],
    "!smeltItem": ["mc-smelt"],
    "!givePlayer": ["mc-give"],
    "!getCraftingPlan": [],
}
WHY_NOT = {
    "debug": "a check of Mindcraft's own runtime: no target or blueprint for the world to judge",
    "cooking": "cooking tasks need farm animals, crops and a smoker, which the embedded server does not have",
}


class MindcraftTask(BaseModel):
    """One task as the file writes it, in every shape Mindcraft's files use (a goal or a target per
    agent, items to counts, a list of dishes); fields this reader does not use are kept, not refused."""

    model_config = ConfigDict(extra="allow")
    goal: str | dict[str, str] = Field(description="one goal, or one per agent by index ('0', '1', ...)")
    type: str
    agent_count: int | None = Field(None, ge=1, description="absent: one agent")
    target: str | dict[str, int] | list[str] | None = Field(None, description="an item, items to counts, or items")
    number_of_target: int = Field(1, ge=1)
    initial_inventory: dict[str, Any] = Field(default_factory=dict)
    timeout: float | None = Field(None, gt=0, description="seconds")
    human_count: int = Field(0, ge=0, description="players a person plays beside the agents")
    blocked_actions: dict[str, list[str]] | None = Field(None, description="Mindcraft commands denied, per agent")
    blueprint: Any = Field(None, description="a construction task's, as agent/blueprint/mindcraft.py reads it")

    @property
    def agents(self) -> int:
        return self.agent_count or 1

    def first_goal(self) -> str:
        """The goal of agent 0 (a one-agent task's)."""
        return self.goal if isinstance(self.goal, str) else self.goal.get("0", next(iter(self.goal.values()), ""))

    def denies(self) -> bool:
        """Whether any agent is denied a tool (DENIED_TOOLS): a one-agent task is then a team of one."""
        return any(DENIED_TOOLS.get(a) for actions in (self.blocked_actions or {}).values() for a in actions)

    def targets(self) -> dict[str, int]:
        """The items to hold, with their counts, by today's ids (a task may write rose_red)."""
        if isinstance(self.target, str):
            written = {self.target: self.number_of_target}
        elif isinstance(self.target, list):
            written = dict.fromkeys(self.target, 1)
        else:
            written = dict(self.target or {})
        return {current(name): count for name, count in written.items()}


def is_task_file(path: Path) -> bool:
    return path.suffix == ".json"


def load_task_file(path: Path) -> tuple[Suite, list[Task]]:
    """The file as a suite: its techtree tasks to run, the rest in `not_run`."""
    if not path.is_file():
        raise ConfigError(f"eval: task file {path} does not exist")
    try:
        written = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ConfigError(f"eval: {path} is not a Mindcraft task file: {e}") from None
    if not isinstance(written, dict) or not written:
        raise ConfigError(f"eval: {path} is not a Mindcraft task file: expected an object of tasks by name")
    tasks, not_run = [], []
    for name, data in written.items():
        try:  # a task that cannot be read or run leaves itself out, not the file
            task = _parsed(name, data)
            reason = _why_not(task)
            if reason is None:
                tasks.append(_episode(name, task))
        except ConfigError as e:
            reason = str(e)
        if reason is not None:
            not_run.append(NotRun(name=name, reason=reason))
    sites = sorted({t.source for t in tasks}) or [PATCH]
    suite = Suite(name=path.stem, description=f"Mindcraft task file {path.name}", seeds=1,
                  scenarios=[SuiteEntry(scenario=site) for site in sites], not_run=not_run)
    if not tasks:
        raise ConfigError(f"eval: {path}: none of its {len(not_run)} tasks can run here ({not_run[0].reason})")
    return suite, tasks


def _parsed(name: str, data: Any) -> MindcraftTask:
    try:
        return MindcraftTask.model_validate(data)
    except ValidationError as e:
        problem = e.errors()[0]
        raise ConfigError(f"task {name}: {'.'.join(map(str, problem['loc']))}: {problem['msg']}") from None


def _why_not(task: MindcraftTask) -> str | None:
    blocked = sorted({a for actions in (task.blocked_actions or {}).values() for a in actions} - set(DENIED_TOOLS))
    if task.type not in RUN_TYPES:
        return WHY_NOT.get(task.type, f"type {task.type!r}: only techtree and construction tasks are read")
    if task.agents > MAX_BOTS:
        return f"{task.agents} agents: a team holds at most {MAX_BOTS} bots"
    if task.human_count:
        return f"plays beside {task.human_count} human player(s): an episode has none"
    if blocked:
        return f"denies Mindcraft's commands {', '.join(blocked)}, which this runtime's tools do not map to"
    if task.type == "techtree" and not task.targets():
        return "no target item to check"
    if task.type == "construction" and task.blueprint is None:
        return "a construction task without a blueprint"
    return None


def _episode(name: str, task: MindcraftTask) -> Task:
    inventory = _inventory(task.initial_inventory)
    if task.type == "construction":
        return _construction(name, task, inventory)
    held = [{"has_item": {"name": item, "count": count}} for item, count in task.targets().items()]
    check = parse_check(held[0] if len(held) == 1 else {"all": held}, f"{name}.target")
    return Task(name=name, source=PATCH, goal=task.first_goal(), check=check, inventory=inventory,
                timeout_s=task.timeout, team=_team(task))


def _team(task: MindcraftTask) -> Team | None:
    """A bot per agent, with that agent's inventory and denied tools (agent i is bot AGENT<i>), all
    toward agent 0's goal: the task is judged over the team (the target in any agent's inventory,
    the blueprint's blocks in the world). None: one agent denied nothing, a run of its own."""
    if task.agents == 1 and not task.denies():
        return None

    def own(written: dict[str, Any] | None, i: int) -> Any:
        return (written or {}).get(str(i))
    bots = [Teammate(name=f"{AGENT}{i}", inventory=_inventory(own(task.initial_inventory, i) or {}),
                     denied=sorted({tool for a in own(task.blocked_actions, i) or [] for tool in DENIED_TOOLS[a]}))
            for i in range(task.agents)]
    return Team(goal=task.first_goal(), bots=bots)


def _construction(name: str, task: MindcraftTask, inventory: list[Item]) -> Task:
    """The blueprint on our flat field; checked by name, every cell scored after the run. With more
    than one agent, a team builds it, each bot holding its agent's share of the materials."""
    blueprint = blueprint_of(task.blueprint, f"task {name}")
    structure = blueprint.structure(name)
    anchor = site_anchor(structure.size, blueprint.corner())
    build = every_cell(structure, anchor)  # first: it says in one line when the structure is too big to check
    return Task(name=name, source=SITE, goal=task.first_goal(), check=Blueprint(blueprint=structure.placed_at(anchor)),
                inventory=inventory, timeout_s=task.timeout, build=build, team=_team(task))


def site_anchor(size: tuple[int, int, int], corner: Cell) -> Cell:
    """Where a structure's corner goes on the site: in front of the spawn, its level 0 on our
    first air layer as it is on theirs."""
    spawn = load_scenario(SITE).spawn
    x, _, z = in_front((math.floor(spawn.x), SITE_FIRST_AIR_Y, math.floor(spawn.z)), spawn.facing, size)
    return (x, SITE_FIRST_AIR_Y + corner[1] - MINDCRAFT_FIRST_AIR_Y, z)


def _inventory(written: dict[str, Any]) -> list[Item]:
    """{item: count}, or per agent {"0": {item: count}} (the first agent's, in a one-agent task)."""
    if written and all(isinstance(v, dict) for v in written.values()):
        written = written.get("0", next(iter(written.values())))
    return [Item(name=current(name), count=count) for name, count in written.items()]


def current(name: str) -> str:
    """Today's id of an item a task names (rose_red is red_dye): older and other tools' names are
    read through agent/mc's one table of aliases; a name that is none is a one-line error."""
    found = item_id(name)
    if found is None:
        raise ConfigError(f"{name!r} is no item of the game, under any name this reader knows "
                          "(agent/mc/aliases.yaml)")
    return found
