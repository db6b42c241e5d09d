"""What a run is asked: its goal and check, from the flags or the scenario, the goal understood
as sub-goals, and the folder its trace goes in. `mcagent run` and `mcagent demo` read them here."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent.checks import Check, load_check
from agent.config import AgentConfig
from agent.errors import ConfigError
from agent.goals import Understanding, understand
from agent.session.world import WorldOptions
from agent.trace import new_folder_kept_if_used

SLUG_CHARS = 40


def goals_asked(goal: str | None, check: str | None, world: WorldOptions, version: str) -> Understanding:
    """The goal and its sub-goals (goal_and_check): given no check, the goal's own words may state
    its parts ("Chop three oak logs and put them in the chest")."""
    goal, given = goal_and_check(goal, check, world)
    return understand(goal, version) if given is None else Understanding.given(goal, given)


def goal_and_check(goal: str | None, check: str | None, world: WorldOptions) -> tuple[str, Check | None]:
    """The flags win; a scenario states its own task with its `goal` and `success` keys. Its
    check goes with its goal only: another goal given in the same world gets its own (derived
    from its words, when no --check is given)."""
    scenario = world.scenario
    own = scenario is not None and goal in (None, scenario.goal)
    goal = goal or (scenario.goal if scenario is not None else None)
    if not goal:
        raise ConfigError("--goal is required unless the scenario has a goal: key")
    if check is not None:
        return goal, load_check(check)
    return goal, scenario.success if own else None


@contextmanager
def trace_path(given: Path | None, config: AgentConfig, goal: str) -> Iterator[Path]:
    """The --trace given, or TRACE_DIR/<time>-<goal>/trace.jsonl in a folder made now for this run
    alone (a run started in the same second with the same goal gets the name with -2, -3, ...),
    removed again if the run failed before it wrote anything there."""
    if given is not None:
        yield given
        return
    slug = re.sub(r"[^a-z0-9]+", "-", goal.lower()).strip("-")[:SLUG_CHARS] or "run"
    with new_folder_kept_if_used(config.trace_dir, f"{time.strftime('%Y%m%d-%H%M%S')}-{slug}") as folder:
        yield folder / "trace.jsonl"
