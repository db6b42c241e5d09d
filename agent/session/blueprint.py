"""A run that builds a blueprint file (`mcagent run --blueprint FILE`): the structure read, placed
in front of the spawn or where asked, its bill of materials given at spawn when asked, and the
blueprint check with states as the run's goal check. `mcagent run` prints what comes back."""

from __future__ import annotations

import math
from pathlib import Path

from agent.blueprint import Structure
from agent.blueprint.files import read_blueprint
from agent.blueprint.score import BuildScore, every_cell, score
from agent.blueprint.site import in_front
from agent.bridge import BotConnection
from agent.checks.model import Blueprint, Cell, Plan
from agent.config.layers import StrictModel
from agent.errors import ConfigError
from agent.mc.names import Item
from agent.server import Scenario, load_scenario
from agent.session.build_seen import read_build
from agent.session.world import WorldOptions, WorldSession

# Where a blueprint is built when the command names no scenario: the open flat field.
DEFAULT_SITE = "flat"
# What `--materials given` adds to the bill: blocks to tower on to the high cells, taken down after.
SCAFFOLDING = Item(name="dirt", count=64)


class BlueprintBuild(StrictModel):
    """What a blueprint run is given: its world, its goal and check, and the cells it is scored on."""

    world: WorldOptions
    goal: str
    check: Blueprint
    cells: Plan  # every cell, air included: what the end of the run reads

    def score(self, session: WorldSession) -> BuildScore | None:
        """The cells as the world holds them now, states compared as the check compares them;
        None when the world cannot be read."""
        return read_score(session.bot, self.cells, states=True)


def read_score(bot: BotConnection, cells: Plan, states: bool = False) -> BuildScore | None:
    """The cells as the world holds them now, read in one call and scored (agent/blueprint/score.py);
    None when the world cannot be read: no score, never a wrong one."""
    seen = read_build(bot, cells)
    return None if seen is None else score(seen.cells, states)


def read_structure(path: Path) -> Structure:
    """A blueprint file: Mindcraft's JSON, a Structure dump, or a schematic file."""
    if not path.is_file():
        raise ConfigError(f"blueprint {path} does not exist")
    return read_blueprint(path)


def blueprint_build(path: Path, world: WorldOptions, at: Cell | None, materials_given: bool,
                    local: bool) -> BlueprintBuild:
    """The build of the file at `path` in `world` (its scenario, or the flat field on a local
    server): at `at`, else in front of the spawn; with the bill of materials in the inventory at
    spawn when `materials_given` (a local server's only)."""
    structure = read_structure(path)
    if not local and (at is None or materials_given):
        raise ConfigError("--blueprint on a server of yours needs --at X,Y,Z and no --materials given: "
                          "neither its spawn nor its inventories are ours to know or set")
    scenario = world.scenario or (load_scenario(DEFAULT_SITE) if local else None)
    anchor = at or _in_front_of_spawn(scenario, structure)
    check = Blueprint(blueprint=structure.placed_at(anchor))
    goal = f"Build the structure of {path.name} ({len(structure.blocks)} blocks) at {anchor[0]}, {anchor[1]}, {anchor[2]}."
    if scenario is not None:
        given = _with_materials(scenario.inventory, structure) if materials_given else scenario.inventory
        scenario = scenario.model_copy(update={"goal": goal, "success": check, "inventory": given, "milestones": []})
    return BlueprintBuild(world=world.model_copy(update={"scenario": scenario}), goal=goal, check=check,
                          cells=every_cell(structure, anchor))


def _in_front_of_spawn(scenario: Scenario | None, structure: Structure) -> Cell:
    if scenario is None or scenario.spawn.on_surface:
        raise ConfigError("--blueprint: the spawn's ground is not known before the world is; give --at X,Y,Z")
    spawn = scenario.spawn
    return in_front((math.floor(spawn.x), math.floor(spawn.y), math.floor(spawn.z)), spawn.facing, structure.size)


def _with_materials(carried: list[Item], structure: Structure) -> list[Item]:
    """What the scenario gives, then the bill of materials and a stack to scaffold with (the
    server splits counts into stacks): a build-only run never stops to fetch blocks."""
    bill = [Item(name=name, count=count) for name, count in structure.materials().items()]
    return [*carried, *bill, SCAFFOLDING]
