"""How much of a placed structure the world holds, scored as Mindcraft scores a construction task
(src/agent/tasks/construction_tasks.js): every cell of the structure's box that the blueprint
names, air included, is a match or a mismatch, a cell where both the blueprint and the world
have air is skipped, and the score is matches / (matches + mismatches). Mindcraft compares
names; `states` takes the blueprint check's own verdict on each cell (name and the properties a
placer chooses, bridge/helpers/blockstate.js). The cells come from one bridge call over them all
(agent/session/build_seen.py's read_build)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from agent.blueprint.model import AIR, Structure
from agent.checks.model import MAX_BLUEPRINT_CELLS, Cell, Placement, Plan
from agent.errors import ConfigError
from agent.mc.blockstate import BlockState
from agent.mc.geometry import Frozen
from agent.trace.schema import CellSeen

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


def score(cells: Sequence[CellSeen], states: bool = False) -> BuildScore:
    """The score of cells as the world holds them (None: not loaded, which reads as air, as in
    Mindcraft): by name, or with `states` as the blueprint check judged each."""
    matches = mismatches = 0
    for cell in cells:
        wanted, held = BlockState.parse(cell.wanted).name, BlockState.parse(cell.held or AIR_SPEC).name
        if wanted in AIR and held in AIR:
            continue
        if (cell.right if states else wanted == held):
            matches += 1
        else:
            mismatches += 1
    return BuildScore(matches=matches, mismatches=mismatches)
