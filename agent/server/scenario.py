"""Scenario worlds: blocks built around the spawn when the local server starts.

A scenario is a YAML file in server-config/scenarios/ (see its README.md). It is built
on the server, before any player joins, by bridge/lib/scenario.js.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from agent.config.layers import StrictModel, load_model_file
from agent.errors import ConfigError
from agent.paths import SERVER_CONFIG_DIR

SCENARIOS_DIR = SERVER_CONFIG_DIR / "scenarios"
# Bounds the blocks one scenario may set, so a typo cannot stall the server's start for minutes.
MAX_SCENARIO_BLOCKS = 100_000

Point = tuple[int, int, int]
BlockName = Annotated[str, Field(pattern=r"^[a-z0-9_]+$", description="a block name such as stone or lava")]


class Box(StrictModel):
    """Every block from one corner to the other (inclusive, world coordinates); `hollow` keeps the shell only."""

    block: BlockName
    from_: Point = Field(alias="from")
    to: Point
    hollow: bool = False

    def volume(self) -> int:
        sides = [abs(a - b) + 1 for a, b in zip(self.from_, self.to)]
        return sides[0] * sides[1] * sides[2]


class Block(StrictModel):
    """One block at a world position."""

    block: BlockName
    at: Point


class Spawn(StrictModel):
    """Where players appear: feet position in world coordinates (blocks) and the facing."""

    x: float
    y: float
    z: float
    facing: Literal["north", "east", "south", "west"] = "south"


class Scenario(StrictModel):
    """A world to start in: boxes first, then single blocks, each in file order (later wins)."""

    name: str
    description: str
    spawn: Spawn
    game_mode: Literal["survival", "creative", "adventure", "spectator"] | None = None
    boxes: list[Box] = []
    blocks: list[Block] = []

    @model_validator(mode="after")
    def _bounded(self) -> Scenario:
        total = sum(b.volume() for b in self.boxes) + len(self.blocks)
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
    return load_model_file(Scenario, path)
