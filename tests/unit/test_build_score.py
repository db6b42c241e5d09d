"""A placed structure scored as Mindcraft scores a construction task (agent/blueprint/score.py):
matches over matches and mismatches, air cells counted, cells where both sides are air skipped;
by name, or with the blueprint check's verdict on each cell's state; read in one call from a
fake bot (agent/session/blueprint.py), and no score, never a wrong one, when the world cannot be
read."""

from __future__ import annotations

from typing import Any

import pytest

from agent.blueprint import Structure
from agent.blueprint.score import BuildScore, every_cell, score
from agent.bridge import BridgeError
from agent.checks.model import Placement
from agent.errors import ConfigError
from agent.session.blueprint import read_score
from agent.trace.schema import CellSeen

BENCH = Structure(source="bench", size=(3, 2, 1), air=[(0, 1, 0), (2, 1, 0)], blocks=[
    Placement(at=(0, 0, 0), block="oak_planks"), Placement(at=(1, 0, 0), block="oak_stairs[facing=east,half=bottom]"),
    Placement(at=(2, 0, 0), block="oak_planks"), Placement(at=(1, 1, 0), block="torch"),
])


class FakeBot:
    """Answers readCells from a dict of world cells (air elsewhere), a cell right when it holds
    exactly the spec asked; counts the calls."""

    def __init__(self, world: dict[tuple[int, int, int], str], *, gone: bool = False) -> None:
        self.world, self.gone, self.calls = world, gone, 0

    def call(self, action: str, plan: dict[str, Any]) -> dict[str, Any]:
        assert action == "readCells"
        self.calls += 1
        if self.gone:
            raise BridgeError("bot is disconnected", code="disconnected")
        ax, ay, az = plan["anchor"]
        cells = []
        for cell in plan["blocks"]:
            at = (ax + cell["at"][0], ay + cell["at"][1], az + cell["at"][2])
            held = self.world.get(at, "air")
            cells.append({"at": at, "wanted": cell["block"], "held": held, "right": held == cell["block"]})
        return {"cells": cells}


def seen(found: list[str | None]) -> list[CellSeen]:
    """The bench's cells at the origin holding `found`, in order, each right when exactly as asked."""
    return [CellSeen(at=at, wanted=wanted, held=held, right=held == wanted)
            for (at, wanted), held in zip(every_cell(BENCH, (0, 0, 0)).cells(), found, strict=True)]


def test_every_cell_holds_the_blocks_then_the_air_at_the_anchor() -> None:
    plan = every_cell(BENCH, (10, 5, 20))
    assert [cell for cell, _ in plan.cells()][:2] == [(10, 5, 20), (11, 5, 20)]
    assert plan.cells()[-2:] == [((10, 6, 20), "air"), ((12, 6, 20), "air")]


def test_an_empty_world_matches_none_of_the_blocks_and_skips_the_air() -> None:
    assert score(seen(["air"] * 6)) == BuildScore(matches=0, mismatches=4)


def test_a_block_where_air_is_asked_is_a_mismatch_and_unloaded_reads_as_air() -> None:
    by_name = score(seen(["oak_planks", "oak_stairs[facing=west,half=bottom]", None, "torch", "dirt", "air"]))
    assert by_name == BuildScore(matches=3, mismatches=2)  # the third plank not loaded; dirt in the air
    assert by_name.text() == "3 of 5 cells right (60 %)"


def test_states_take_the_checks_verdict_on_each_cell() -> None:
    cells = seen(["oak_planks", "oak_stairs[facing=west,half=bottom]", "oak_planks", "torch", "air", "air"])
    assert score(cells).share == 1.0
    assert score(cells, states=True) == BuildScore(matches=3, mismatches=1)


def test_the_world_is_read_in_one_call() -> None:
    bot = FakeBot({(0, 0, 0): "oak_planks", (1, 1, 0): "torch", (2, 1, 0): "dirt"})
    found = read_score(bot, every_cell(BENCH, (0, 0, 0)))  # type: ignore[arg-type]
    assert found == BuildScore(matches=2, mismatches=3) and bot.calls == 1


def test_a_world_that_cannot_be_read_gives_no_score() -> None:
    assert read_score(FakeBot({}, gone=True), every_cell(BENCH, (0, 0, 0))) is None  # type: ignore[arg-type]


def test_nothing_counted_is_all_right_and_a_structure_too_big_to_score_is_refused_in_one_line() -> None:
    assert BuildScore(matches=0, mismatches=0).share == 1.0
    huge = Structure(source="huge", size=(100, 1, 100), blocks=[Placement(at=(0, 0, 0), block="stone")],
                     air=[(x, 0, z) for x in range(100) for z in range(100) if (x, z) != (0, 0)])
    with pytest.raises(ConfigError, match="huge: 10000 cells with its air; at most 8192"):
        every_cell(huge, (0, 0, 0))
