"""How much of a placed structure the world holds, scored as Mindcraft scores a construction task
(src/agent/tasks/construction_tasks.js): every cell of the structure's box that the blueprint
names, air included, is a match or a mismatch, a cell where both the blueprint and the world
have air is skipped, and the score is matches / (matches + mismatches). Mindcraft compares
names; `states` compares the properties a placer chooses too (agent/mc/blockstate.py), as the
blueprint check does. The world is read in one bridge call over all the cells."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from agent.blueprint.model import AIR, Structure
from agent.bridge import BotConnection, BridgeError
from agent.checks.model import MAX_BLUEPRINT_CELLS, Cell, Placement, Plan
from agent.errors import ConfigError
from agent.mc.blockstate import BlockState
from agent.mc.geometry import Frozen

AIR_SPEC = "air"


class BuildScore(Frozen):
    """Cells right and wrong after a build; cells where both sides are air are not counted."""

    matches: int = Field(ge=0)
    mismatches: int = Field(ge=0)

    @property
    def cells(self) -> int:
        return self.matches + self.mismatches

    @property
    def share(self) -> float:
        """matches / (matches + mismatches); 1.0 when nothing was counted (all air, all empty)."""
        return self.matches / self.cells if self.cells else 1.0

    def text(self) -> str:
        """e.g. 312 of 337 cells right (93 %)."""
        return f"{self.matches} of {self.cells} cells right ({100 * self.share:.0f} %)"


def every_cell(structure: Structure, anchor: Cell) -> Plan:
    """The structure at `anchor` with its air as cells too: what a score reads."""
    cells = structure.blocks + [Placement(at=at, block=AIR_SPEC) for at in structure.air]
    if len(cells) > MAX_BLUEPRINT_CELLS:
        raise ConfigError(f"{structure.source}: {len(cells)} cells with its air; at most {MAX_BLUEPRINT_CELLS} "
                          "are scored")
    return Plan(anchor=anchor, blocks=cells)


def score(plan: Plan, found: Sequence[str | None], states: bool = False) -> BuildScore:
    """The score of `plan` against `found`, each cell's block as the world holds it (a spec with
    its chosen properties), in the plan's order; None (not loaded) reads as air, as in Mindcraft."""
    matches = mismatches = 0
    for (_, wanted), held in zip(plan.cells(), found, strict=True):
        want, have = BlockState.parse(wanted), BlockState.parse(held or AIR_SPEC)
        if want.name in AIR and have.name in AIR:
            continue
        same = want.name == have.name and (not states or all(have.properties.get(k) == v
                                                              for k, v in want.chosen().items()))
        matches, mismatches = matches + same, mismatches + (not same)
    return BuildScore(matches=matches, mismatches=mismatches)


def read_score(bot: BotConnection, plan: Plan, states: bool = False) -> BuildScore | None:
    """The world's blocks at the plan's cells, read in one call, scored. Never raises: a world
    that cannot be read (the bot gone) gives no score, never a wrong one."""
    try:
        found = bot.blocks_at([cell for cell, _ in plan.cells()])
    except BridgeError:
        return None
    return score(plan, found, states)
