"""Mindcraft's construction blueprints read into a Structure (agent/blueprint/mindcraft.py): each
level a y layer from its coordinates, rows north to south and cells west to east, offsets from
the lowest north-west corner; air kept as the structure's air; a door's two cells read as its
halves; the shapes a file may hold it in; bad ones refused in one line naming what is accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.blueprint.mindcraft import blueprint_of, read_json_blueprint
from agent.errors import ConfigError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "eval"

HUT = {"materials": {}, "levels": [
    {"level": 0, "coordinates": [10, -60, 20], "placement": [["stone", "oak_door", "stone"], ["air", "air", "air"]]},
    {"level": 1, "coordinates": [10, -59, 20], "placement": [["stone", "oak_door", "stone"], ["air", "air", "air"]]},
    {"level": 2, "coordinates": [10, -58, 20], "placement": [["oak_stairs", "oak_planks", "torch"]]},
]}


def test_levels_become_layers_with_offsets_from_the_lowest_north_west_corner() -> None:
    hut = blueprint_of(HUT, "hut")
    assert hut.corner() == (10, -60, 20)
    structure = hut.structure("hut")
    assert structure.size == (3, 3, 2)
    blocks = {p.at: p.block for p in structure.blocks}
    assert blocks[(0, 0, 0)] == "stone" and blocks[(2, 1, 0)] == "stone"
    assert blocks[(0, 2, 0)] == "oak_stairs" and blocks[(1, 2, 0)] == "oak_planks" and blocks[(2, 2, 0)] == "torch"
    assert sorted(structure.air) == [(x, y, 1) for x in range(3) for y in range(2)]


def test_a_door_of_two_cells_is_its_lower_and_upper_half_and_counted_once() -> None:
    structure = blueprint_of(HUT, "hut").structure("hut")
    blocks = {p.at: p.block for p in structure.blocks}
    assert blocks[(1, 0, 0)] == "oak_door[half=lower]" and blocks[(1, 1, 0)] == "oak_door[half=upper]"
    assert structure.materials() == {"stone": 4, "oak_door": 1, "oak_stairs": 1, "oak_planks": 1, "torch": 1}


def test_levels_may_start_anywhere_and_the_corner_is_their_least_cell() -> None:
    shifted = {"levels": [{"level": 0, "coordinates": [5, -60, 5], "placement": [["stone"]]},
                          {"level": 1, "coordinates": [4, -59, 6], "placement": [["dirt"]]}]}
    structure = blueprint_of(shifted, "shifted").structure("shifted")
    assert {p.at: p.block for p in structure.blocks} == {(1, 0, 0): "stone", (0, 1, 1): "dirt"}
    assert structure.size == (2, 2, 2)


def test_a_task_file_with_one_construction_task_a_task_or_a_bare_blueprint_are_read(tmp_path: Path) -> None:
    for written in (HUT, {"type": "construction", "blueprint": HUT}, {"hut": {"type": "construction", "blueprint": HUT}}):
        path = tmp_path / "hut.json"
        path.write_text(json.dumps(written))
        assert len(read_json_blueprint(path).blocks) == 9


def test_a_structure_as_its_model_dumps_it_reads_back(tmp_path: Path) -> None:
    structure = blueprint_of(HUT, "hut").structure("hut")
    path = tmp_path / "hut.json"
    path.write_text(structure.model_dump_json())
    assert read_json_blueprint(path) == structure


def test_a_task_file_with_several_construction_tasks_names_none_of_them_the_blueprint() -> None:
    with pytest.raises(ConfigError, match="exactly one construction task \\(found 2 blueprints\\)"):
        read_json_blueprint(FIXTURES / "mindcraft_construction.json")


@pytest.mark.parametrize(("written", "message"), [
    ({"levels": []}, "levels: List should have at least 1 item"),
    ({"levels": [{"level": 0, "coordinates": [0, 0], "placement": [["stone"]]}]}, "levels.0.coordinates"),
    ({"levels": [{"level": 0, "coordinates": [0, 0, 0], "placement": [["stnoe"]]}]}, "'stnoe' is not a block"),
    ({"a": {"goal": "x"}, "b": {"goal": "y"}}, "found 0 blueprints"),
    ([1, 2], "not a Mindcraft blueprint"),
])
def test_what_is_not_a_blueprint_is_refused_in_one_line(tmp_path: Path, written: object, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(written))
    with pytest.raises(ConfigError, match=message) as refused:
        read_json_blueprint(path)
    assert "\n" not in str(refused.value) and str(path) in str(refused.value)


def test_a_file_that_is_not_json_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{levels")
    with pytest.raises(ConfigError, match="not readable JSON") as refused:
        read_json_blueprint(path)
    assert "\n" not in str(refused.value)
