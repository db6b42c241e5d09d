"""A team: several bots in one world, each planning on its own (`mcagent run --bots N` or
`--team FILE`). What the team file says, and what it makes of a run's world and goals.

    goal: Craft shears          # the team's goal, every bot's unless it has its own
    bots:
      - {name: Ada, inventory: [{name: iron_ingot, count: 1}]}
      - {name: Bo, goal: Collect 4 oak logs}

A shared goal is the team's: it is reached when any bot reaches it (as Mindcraft judges its
collaboration tasks: the target in any agent's inventory), and its teammates stop then. Goals
of their own are each bot's, and the team succeeds when every bot does.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, field_validator

from agent.config.layers import StrictModel, load_model_file
from agent.config.model import Username
from agent.errors import ConfigError
from agent.mc.names import Item
from agent.server import Scenario

# Bots a team may hold: the scale measured on 2 cores (docs/performance.md, 1 to 8 bots).
MAX_BOTS = 8


class Teammate(StrictModel):
    """One bot of the team: its player name, its own goal (None: the team's), what it carries on
    joining (None: the scenario's inventory), and the tools it may not use."""

    name: Username
    goal: str | None = None
    inventory: list[Item] | None = None
    denied: list[str] = Field([], description="tools this bot may not use (a task's blocked actions)")


class Team(StrictModel):
    goal: str | None = Field(None, description="the team's goal; None: each bot's own, else the scenario's")
    bots: list[Teammate] = Field(min_length=1, max_length=MAX_BOTS)

    @field_validator("bots")
    @classmethod
    def _names_differ(cls, bots: list[Teammate]) -> list[Teammate]:
        names = [b.name.lower() for b in bots]  # the server tells players apart without case
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"each bot needs a name of its own; given twice: {', '.join(twice)}")
        return bots

    @classmethod
    def of(cls, count: int, username: str, goal: str | None) -> Team:
        """`--bots N`: N bots named after the configured username (mcagent1, mcagent2, ...)."""
        if not 1 <= count <= MAX_BOTS:
            raise ConfigError(f"--bots: a team holds 1 to {MAX_BOTS} bots, got {count}")
        stem = username[:16 - len(str(count))]
        return cls(goal=goal, bots=[Teammate(name=f"{stem}{i}") for i in range(1, count + 1)])

    def shares_goal(self) -> bool:
        """Whether the bots work toward one goal (the team's), rather than each toward its own."""
        return all(b.goal is None for b in self.bots)

    def goal_of(self, bot: Teammate, scenario: Scenario | None) -> str:
        goal = bot.goal or self.goal or (scenario.goal if scenario is not None else None)
        if not goal:
            raise ConfigError(f"bot {bot.name} has no goal: give the team a goal (--goal or the team file's goal:), "
                              "the bot one of its own, or a scenario with a goal")
        return goal

    def in_world(self, scenario: Scenario | None) -> Scenario | None:
        """The scenario with each bot's own inventory given by name at its join."""
        own = {b.name: b.inventory for b in self.bots if b.inventory is not None}
        if not own:
            return scenario
        if scenario is None:
            raise ConfigError("a bot's own inventory is given on the local server only (its join is ours to set)")
        return scenario.model_copy(update={"inventories": {**scenario.inventories, **own}})


def load_team(path: Path) -> Team:
    """A team file (YAML or JSON); any problem is one ConfigError line."""
    if not path.is_file():
        raise ConfigError(f"team file {path} does not exist")
    return load_model_file(Team, path)
