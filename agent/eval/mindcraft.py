"""A Mindcraft task file read as it is written (kolbytn/mindcraft, tasks/*.json): an object of
tasks by name, each with a goal, an initial inventory, an agent count, a target item and how many,
a type and a timeout. Each single-agent `techtree` task becomes an episode in the resource patch
(server-config/scenarios/resource-patch.yaml: trees, stone, iron and coal ore near the spawn, for
tasks that expect a natural world): the initial inventory given at join, the check
`has_item {name: target, count: number_of_target}`, the timeout the episode's bound. Others are
listed as not run, with why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.checks import parse_check
from agent.errors import ConfigError
from agent.eval.suite import NotRun, Suite, SuiteEntry, Task
from agent.mc.names import Item

PATCH = "resource-patch"
RUN_TYPES = {"techtree"}
WHY_NOT = {
    "cooking": "cooking tasks need farm animals, crops and a smoker, which the embedded server does not have",
    "construction": "construction tasks score a blueprint of many levels; their blueprint format is not read yet",
}


class MindcraftTask(BaseModel):
    """One task as the file writes it; fields this reader does not use are kept, not refused."""

    model_config = ConfigDict(extra="allow")
    goal: str
    type: str
    agent_count: int = Field(1, ge=1)
    target: str | None = None
    number_of_target: int = Field(1, ge=1)
    initial_inventory: dict[str, Any] = Field(default_factory=dict)
    timeout: float | None = Field(None, gt=0, description="seconds")


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
        task = _parsed(path, name, data)
        reason = _why_not(task)
        if reason:
            not_run.append(NotRun(name=name, reason=reason))
        else:
            tasks.append(_episode(name, task))
    suite = Suite(name=path.stem, description=f"Mindcraft task file {path.name}", seeds=1,
                  scenarios=[SuiteEntry(scenario=PATCH)], not_run=not_run)
    if not tasks:
        raise ConfigError(f"eval: {path}: none of its {len(not_run)} tasks can run here ({not_run[0].reason})")
    return suite, tasks


def _parsed(path: Path, name: str, data: Any) -> MindcraftTask:
    try:
        return MindcraftTask.model_validate(data)
    except ValidationError as e:
        problem = e.errors()[0]
        raise ConfigError(f"eval: {path}: task {name}: {'.'.join(map(str, problem['loc']))}: {problem['msg']}") from None


def _why_not(task: MindcraftTask) -> str | None:
    if task.agent_count > 1:
        return f"multi-agent ({task.agent_count} agents): an episode runs one bot"
    if task.type not in RUN_TYPES:
        return WHY_NOT.get(task.type, f"type {task.type!r}: only techtree tasks are read")
    if task.target is None:
        return "no target item to check"
    return None


def _episode(name: str, task: MindcraftTask) -> Task:
    check = parse_check({"has_item": {"name": task.target, "count": task.number_of_target}}, f"{name}.target")
    return Task(name=name, source=PATCH, goal=task.goal, check=check, inventory=_inventory(task.initial_inventory),
                timeout_s=task.timeout)


def _inventory(written: dict[str, Any]) -> list[Item]:
    """{item: count}, or per agent {"0": {item: count}} (the first agent's, in a one-agent task)."""
    if written and all(isinstance(v, dict) for v in written.values()):
        written = written.get("0", next(iter(written.values())))
    return [Item(name=name, count=count) for name, count in written.items()]
