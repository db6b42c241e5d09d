"""Scenario worlds: blocks built around the spawn when the local server starts.

A scenario is a YAML file in server-config/scenarios/ (see its README.md). It is built
on the server, before any player joins, by bridge/lib/scenario.js. It may name a task
(`goal`), the check that says the task is done (`success`, agent/checks/) and what the
player carries at the start (`inventory`). An eval seed varies it through one Transform
(agent/mc/transform.py), so its blocks, spawn and success check move together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from agent.checks.model import Area, Check, CheckError, parse_check
from agent.config.layers import StrictModel, load_model_file
from agent.errors import ConfigError
from agent.mc.blockstate import BlockSpec
from agent.mc.names import BlockName, Item
from agent.mc.transform import Transform
from agent.paths import SERVER_CONFIG_DIR
from agent.server.settings import Generator

SCENARIOS_DIR = SERVER_CONFIG_DIR / "scenarios"
# Bounds the blocks one scenario may set, so a typo cannot stall the server's start for minutes.
MAX_SCENARIO_BLOCKS = 100_000

Point = tuple[int, int, int]


class Box(Area):
    """An area of cells (`from`, `to`, inclusive, world blocks) filled with one block; `hollow`
    keeps the shell only. A seed moves it as it moves a check's area (Area.transformed)."""

    block: BlockName
    hollow: bool = False

    def volume(self) -> int:
        sides = [abs(a - b) + 1 for a, b in zip(self.from_, self.to)]
        return sides[0] * sides[1] * sides[2]


class Block(StrictModel):
    """One block at a world position, in the state asked (`oak_door[half=upper]`: the block's
    default state with these properties)."""

    block: BlockSpec
    at: Point

    def transformed(self, t: Transform) -> Block:
        return self.model_copy(update={"at": t.cell(*self.at)})


class Chest(StrictModel):
    """A chest at a world cell, holding items from its first slot (at most 27 stacks)."""

    at: Point
    items: list[Item] = []

    def transformed(self, t: Transform) -> Chest:
        return self.model_copy(update={"at": t.cell(*self.at)})


class Walker(StrictModel):
    """A player the server brings in (bridge/lib/walker.js): it appears at the centre of the
    path's first cell (world blocks) and, `delay_s` seconds after another player joins, walks to
    each later cell in turn, then stands there."""

    name: str = Field(pattern=r"^\w{3,16}$", description="its username")
    path: list[Point] = Field(min_length=2)
    delay_s: float = Field(3.0, ge=0, le=60)

    def transformed(self, t: Transform) -> Walker:
        return self.model_copy(update={"path": [t.cell(*p) for p in self.path]})


class Terrain(StrictModel):
    """The generated world a scenario is built on, in place of server.yaml's generator and seed."""

    generator: Generator
    seed: int


class Structure(StrictModel):
    """Boxes, blocks and chests built on the ground at the column `at` ([x, z], world blocks):
    their cells are offsets (x east, y up, z south) from the cell just above the ground there
    (the highest solid block), so a tree stands on a hill as on a plain."""

    at: tuple[int, int]
    boxes: list[Box] = []
    blocks: list[Block] = []
    chests: list[Chest] = []

    def transformed(self, t: Transform) -> Structure:
        x, _, z = t.cell(self.at[0], 0, self.at[1])
        turn = t.model_copy(update={"pivot_x": 0.5, "pivot_z": 0.5})  # offsets turn about their own origin
        return self.model_copy(update={
            "at": (x, z),
            "boxes": [b.transformed(turn) for b in self.boxes],
            "blocks": [b.transformed(turn) for b in self.blocks],
            "chests": [c.transformed(turn) for c in self.chests],
        })

    def volume(self) -> int:
        return sum(b.volume() for b in self.boxes) + len(self.blocks) + len(self.chests)


class Spawn(StrictModel):
    """Where players appear: feet position in world coordinates (blocks) and the facing."""

    x: float
    y: float = Field(5, description="ignored when on_surface")
    z: float
    # On generated terrain: the feet go on the ground of the spawn's column, found when it is built.
    on_surface: bool = False
    facing: Literal["north", "east", "south", "west"] = "south"
    # The goal speaks of the facing ("two blocks in front of you"): a seed turns it with the
    # world, where otherwise it picks one, so that memorising "go north" does not pay.
    keep_facing: bool = False

    def transformed(self, t: Transform) -> Spawn:
        x, y, z = t.point(self.x, self.y, self.z)
        facing = t.facing(self.facing) if self.keep_facing else t.spawn(self.facing)
        return self.model_copy(update={"x": x, "y": y, "z": z, "facing": facing})


class Scenario(StrictModel):
    """A world to start in: boxes first, then single blocks, each in file order (later wins)."""

    name: str
    description: str
    spawn: Spawn
    game_mode: Literal["survival", "creative", "adventure", "spectator"] | None = None
    boxes: list[Box] = []
    blocks: list[Block] = []
    goal: str | None = Field(None, description="the task in words, for the planner")
    success: Check | None = Field(None, description="the check that says the goal is reached (agent/checks/)")
    judge: Check | None = Field(None, description="a check the world decides after the run, never shown to the "
                                                  "planner: how well the goal's words were understood")
    inventory: list[Item] = Field([], description="what every player carries on joining")
    inventories: dict[str, list[Item]] = Field({}, description="what the player of that name carries on joining, "
                                                               "instead of `inventory` (a team's own)")
    chests: list[Chest] = Field([], description="chests placed after the blocks, with what they hold")
    walker: Walker | None = Field(None, description="a player that walks a path once another joins")
    terrain: Terrain | None = Field(None, description="generated ground to build on; none: server.yaml's")
    structures: list[Structure] = Field([], description="built on the ground, after the boxes and blocks")
    milestones: list[Check] = Field([], description="checks on the way to the goal, each reported with when it first "
                                                    "held (a tech tree's wooden, stone and iron pickaxe)")

    @field_validator("success", "judge", mode="before")
    @classmethod
    def _check(cls, value: object, info: ValidationInfo) -> Check | None:
        # Our own wording (success.all[1].within: ...); a CheckError passes through pydantic.
        return None if value is None else parse_check(value, info.field_name or "success")

    @field_validator("milestones", mode="before")
    @classmethod
    def _milestones(cls, value: object) -> list[Check]:
        if not isinstance(value, list):
            raise ValueError("milestones must be a list of checks")
        return [parse_check(v, f"milestones[{i}]") for i, v in enumerate(value)]

    def milestones_toward(self, goal: str) -> list[Check]:
        """The milestones, for a run towards the scenario's own goal; none for another goal."""
        return self.milestones if goal == self.goal else []

    def transformed(self, seed: int) -> Scenario:
        """The scenario as eval seed `seed` varies it (seed 0: unchanged): blocks, spawn and
        success check turned and mirrored about the spawn's block, and the spawn facing."""
        t = Transform.for_seed(seed, self.spawn.x, self.spawn.z)
        if t.identity:
            return self
        return self.model_copy(update={
            "spawn": self.spawn.transformed(t),
            "boxes": [b.transformed(t) for b in self.boxes],
            "blocks": [b.transformed(t) for b in self.blocks],
            "chests": [c.transformed(t) for c in self.chests],
            "walker": self.walker.transformed(t) if self.walker else None,
            "structures": [st.transformed(t) for st in self.structures],
            "success": self.success.transformed(t) if self.success else None,
            "judge": self.judge.transformed(t) if self.judge else None,
            "milestones": [m.transformed(t) for m in self.milestones],
        })

    @model_validator(mode="after")
    def _bounded(self) -> Scenario:
        total = (sum(b.volume() for b in self.boxes) + len(self.blocks) + len(self.chests)
                 + sum(st.volume() for st in self.structures))
        if total > MAX_SCENARIO_BLOCKS:
            raise ValueError(f"sets {total} blocks; at most {MAX_SCENARIO_BLOCKS} are allowed")
        return self


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIOS_DIR.glob("*.yaml"))


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by name (server-config/scenarios/NAME.yaml), or any YAML file by path."""
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml"):
        path = SCENARIOS_DIR / f"{name_or_path}.yaml"
        if not path.is_file():
            raise ConfigError(f"no scenario named {name_or_path!r} (shipped: {', '.join(scenario_names())}; or give a .yaml path)")
    elif not path.is_file():
        raise ConfigError(f"scenario file {path} does not exist")
    try:
        return load_model_file(Scenario, path)
    except CheckError as e:  # raised inside validation, so it has no file name yet
        raise ConfigError(f"{path}: {e}") from None
