"""Mindcraft's construction blueprints (kolbytn/mindcraft, tasks/construction_tasks/) read into a
Structure. A blueprint is `{materials, levels: [{level, coordinates: [x, y, z], placement}]}`:
one level per y layer, `coordinates` its north-west corner in Mindcraft's world, `placement`
its rows north to south, each row's cells west to east, each a bare block name. Mindcraft
scores by those names alone (src/agent/tasks/construction_tasks.js), so no state is asked, but
for a door: a door is two cells of the same name one above the other, and they are read as its
lower and upper half (a door placed in the lower cell fills the upper one, and the bill of
materials counts it once). "air" cells are the structure's air: its score counts them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator

from agent.blueprint.model import AIR, Structure
from agent.checks.model import Cell, Placement
from agent.config.layers import StrictModel
from agent.errors import ConfigError
from agent.mc.gamedata import block_names

DOOR = "_door"


class Level(StrictModel):
    level: int
    coordinates: Cell = Field(description="its north-west cell in Mindcraft's world")
    placement: list[list[str]] = Field(min_length=1, description="rows north to south, cells west to east")

    @field_validator("placement")
    @classmethod
    def _known(cls, rows: list[list[str]]) -> list[list[str]]:
        unknown = sorted({name for row in rows for name in row} - block_names())
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not a block of the game")
        return rows


class MindcraftBlueprint(StrictModel):
    """A blueprint as Mindcraft writes it; `materials` is theirs, the Structure counts its own."""

    materials: dict[str, Any] = {}
    levels: list[Level] = Field(min_length=1)

    def corner(self) -> Cell:
        """The lowest north-west cell of its box, in Mindcraft's world."""
        return (min(lv.coordinates[0] for lv in self.levels), min(lv.coordinates[1] for lv in self.levels),
                min(lv.coordinates[2] for lv in self.levels))

    def cells(self) -> dict[Cell, str]:
        """Every cell's block name at its offset from the corner (x east, y up, z south)."""
        cx, cy, cz = self.corner()
        return {(x + dx - cx, y - cy, z + dz - cz): name
                for (x, y, z), rows in ((lv.coordinates, lv.placement) for lv in self.levels)
                for dz, row in enumerate(rows) for dx, name in enumerate(row)}

    def structure(self, source: str) -> Structure:
        """The blueprint as a Structure named `source`."""
        cells = self.cells()
        blocks = [Placement(at=at, block=_door_half(cells, at, name)) for at, name in sorted(cells.items())
                  if name not in AIR]
        air = [at for at, name in sorted(cells.items()) if name in AIR]
        size = tuple(max(at[i] for at in cells) + 1 for i in range(3))
        return Structure(source=source, size=size, blocks=blocks, air=air)


def _door_half(cells: dict[Cell, str], at: Cell, name: str) -> str:
    """A door cell with its half when the cell above or below holds the same door; else the name."""
    if not name.endswith(DOOR):
        return name
    x, y, z = at
    if cells.get((x, y + 1, z)) == name and cells.get((x, y - 1, z)) != name:
        return f"{name}[half=lower]"
    if cells.get((x, y - 1, z)) == name:
        return f"{name}[half=upper]"
    return name


def blueprint_of(written: Any, source: str) -> MindcraftBlueprint:
    """The blueprint in a JSON value: a bare blueprint, a task with one, or a task file holding
    exactly one construction task. Anything else is a ConfigError saying what is accepted."""
    if isinstance(written, dict) and "blueprint" in written:
        written = written["blueprint"]
    elif isinstance(written, dict) and "levels" not in written:
        found = [task["blueprint"] for task in written.values() if isinstance(task, dict) and "blueprint" in task]
        if len(found) != 1:
            raise ConfigError(f"{source}: expected a Mindcraft blueprint ({{levels: [...]}}), a task with one, or a "
                              f"task file with exactly one construction task (found {len(found)} blueprints)")
        written = found[0]
    try:
        return MindcraftBlueprint.model_validate(written)
    except ValidationError as e:
        problem = e.errors()[0]
        where = ".".join(map(str, problem["loc"])) or "the blueprint"
        why = problem["msg"].removeprefix("Value error, ")
        raise ConfigError(f"{source}: not a Mindcraft blueprint: {where}: {why}") from None


def read_json_blueprint(path: Path) -> Structure:
    """A .json blueprint: Mindcraft's (blueprint_of), or a Structure as its model dumps it
    (`{source, size, blocks, air}`)."""
    try:
        written = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"blueprint {path}: not readable JSON ({e})") from None
    if isinstance(written, dict) and {"size", "blocks"} <= written.keys():
        try:
            return Structure.model_validate(written)
        except ValidationError as e:
            problem = e.errors()[0]
            raise ConfigError(f"blueprint {path}: not a Structure: {'.'.join(map(str, problem['loc']))}: "
                              f"{problem['msg']}") from None
    return blueprint_of(written, f"blueprint {path}").structure(path.name)
