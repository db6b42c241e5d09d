"""SpatialMemory: recording surveys into chunks (negative coordinates and chunk boundaries
included), visits, and the map file a resumed run reads back."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from agent.world.spatial import Kind, SpatialMemory, Survey
from spatial_worlds import layer, survey

# A box across chunk boundaries on every axis: x -18..-14 (chunks -2, -1), y -2..1 (-1, 0), z 14..17 (0, 1).
LO, HI = (-18, -2, 14), (-13, 2, 18)
GROUND = layer(-1, -18, -14, 14, 17)
HOLE = (-16, 1, 15)


def across_chunks(**kwargs) -> Survey:
    return survey(LO, HI, solid=GROUND, unknown={HOLE}, feet=(-16, 0, 16), **kwargs)


def cells(lo=LO, hi=HI):
    return [(x, y, z) for x in range(lo[0], hi[0]) for y in range(lo[1], hi[1]) for z in range(lo[2], hi[2])]


def test_a_survey_across_chunk_boundaries_reads_back_cell_for_cell():
    memory = SpatialMemory.open(None)
    memory.record(across_chunks())
    for c in cells():
        expected = Kind.SOLID if c in GROUND else Kind.UNKNOWN if c == HOLE else Kind.FREE
        assert memory.kind(*c) == expected, c
    assert memory.known_cells() == len(cells()) - 1
    assert memory.kind(-19, 0, 16) == Kind.UNKNOWN  # outside the box
    assert memory.standable(-16, 0, 16) and not memory.standable(-16, -1, 16)


def test_the_window_is_the_same_cells_as_the_single_reads():
    memory = SpatialMemory.open(None)
    memory.record(across_chunks())
    lo, hi = (-20, -3, 12), (-12, 3, 19)
    window = memory.window(lo, hi) & 7
    assert window.shape == (8, 6, 7)
    assert all(window[x - lo[0], y - lo[1], z - lo[2]] == memory.kind(x, y, z) for x, y, z in cells(lo, hi))


def test_a_later_survey_keeps_what_it_does_not_see_and_updates_what_it_does():
    memory = SpatialMemory.open(None)
    memory.record(across_chunks())
    memory.mark_visited(-16, 0, 16)
    pillar = (-15, 0, 15)
    unseen = {c for c in cells() if c[0] == -18}  # the west face of the box is out of sight now
    memory.record(survey(LO, HI, solid=GROUND | {pillar}, unknown=unseen, feet=(-16, 0, 16)))
    assert memory.kind(*pillar) == Kind.SOLID  # a block placed since
    assert memory.kind(*HOLE) == Kind.FREE  # seen now
    assert all(memory.kind(*c) != Kind.UNKNOWN for c in unseen)  # kept from the first survey
    assert memory.visits(-16, 0, 16) == 1  # recording keeps the visits
    assert memory.known_cells() == len(cells())


def test_visits_count_up_and_saturate_without_touching_the_cell():
    memory = SpatialMemory.open(None)
    memory.record(across_chunks())
    for _ in range(20):
        memory.mark_visited(-16, 0, 16)
    assert memory.visits(-16, 0, 16) == 15 and memory.kind(-16, 0, 16) == Kind.FREE
    assert memory.visits(-16, 0, 17) == 0
    memory.mark_visited(100, 64, -100)  # a cell never surveyed
    assert memory.visits(100, 64, -100) == 1 and memory.kind(100, 64, -100) == Kind.UNKNOWN


def test_sky_is_known_per_cell_from_each_columns_lowest_open_level():
    memory = SpatialMemory.open(None)
    memory.record(across_chunks(sky_from=1))  # a roof at y = 0 over every column
    assert memory.sky(-16, 1, 16) and not memory.sky(-16, 0, 16)
    assert not memory.sky(*HOLE)  # unknown cells know nothing, their sky included


def test_the_map_file_round_trips(tmp_path):
    path = tmp_path / "map.sqlite"
    memory = SpatialMemory.open(path)
    memory.record(across_chunks(sky_from=1))
    memory.mark_visited(-16, 0, 16)
    memory.mark_visited(-16, 0, 16)
    before = memory.window((-20, -3, 12), (-12, 3, 19))
    memory.close()
    again = SpatialMemory.open(path)
    assert np.array_equal(again.window((-20, -3, 12), (-12, 3, 19)), before)
    assert again.visits(-16, 0, 16) == 2 and again.known_cells() == len(cells()) - 1
    again.record(survey(LO, HI, solid=GROUND | {HOLE}, feet=(-16, 0, 16)))  # the resumed run goes on
    again.close()
    assert SpatialMemory.open(path).kind(*HOLE) == Kind.SOLID


def test_a_map_file_of_another_format_is_refused(tmp_path):
    path = tmp_path / "map.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(ValueError, match="format 99"):
        SpatialMemory.open(path)


def test_a_survey_whose_sizes_disagree_is_refused():
    good = across_chunks()
    with pytest.raises(ValueError, match="needs"):
        Survey.model_validate({**good.model_dump(), "cells": good.cells[1:]})


def test_blocks_seen_by_name_are_kept_in_the_file_and_forgotten_when_looked_for_and_gone(tmp_path):
    path = tmp_path / "map.sqlite"
    memory = SpatialMemory.open(path)
    memory.remember_blocks({(1, 5, 8): "gold_block", (30, 5, 0): "gold_block", (2, 5, 2): "chest"}, {"gold_block", "chest"},
                           (0, 5, 0), 16)
    memory.remember_blocks({}, {"gold_block"}, (0, 5, 0), 16)  # looked again: the near gold block is gone
    memory.close()
    again = SpatialMemory.open(path, read_only=True)
    assert again.seen == {(30, 5, 0): "gold_block", (2, 5, 2): "chest"}  # beyond the radius, or not looked for
    again.close()
