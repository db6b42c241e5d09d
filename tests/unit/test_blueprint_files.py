"""Schematic files read into Structures (agent/blueprint/files.py): each format gives back the
cells and block states its independent writer put in (tests/fixtures/blueprints/make_fixtures.py,
nbtlib and litemapy), a shipped public file reads whole, and a bad file is one line naming it."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import numpy as np
import pytest
from fixtures.blueprints.make_fixtures import write_sponge
from nbtlib import Compound, File, Int

from agent.blueprint.errors import BlueprintError
from agent.blueprint.files import read_blueprint, read_blueprint_file
from agent.blueprint.grid import MAX_BOX_CELLS, Region, structure_of, under_todays_name
from agent.blueprint.mcedit import legacy_names
from agent.blueprint.litematic import unpack
from agent.blueprint.sponge import varints
from agent.cli import main
from agent.mc.blockstate import BlockState
from agent.mc.gamedata import block_names
from agent.paths import REPO_ROOT

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "blueprints"
HOUSE = json.loads((FIXTURES / "house.json").read_text(encoding="utf-8"))
SHIPPED = REPO_ROOT / "server-config" / "blueprints" / "smallhouse1.schem"


def _cells(specs: dict[str, str]) -> dict[tuple[int, ...], str]:
    return {tuple(map(int, at.split(","))): BlockState.parse(spec).spec() for at, spec in specs.items()}


def _box(size: list[int]) -> set[tuple[int, int, int]]:
    return {(x, y, z) for x in range(size[0]) for y in range(size[1]) for z in range(size[2])}


@pytest.mark.parametrize(("name", "fmt", "blocks"), [
    ("house_v2.schem", "Sponge v2", HOUSE["blocks"]),
    ("house_v3.schem", "Sponge v3", HOUSE["blocks"]),
    ("house.litematic", "Litematica v6", HOUSE["blocks"]),
    ("house.schematic", "MCEdit", HOUSE["mcedit"]["reads_as"]),
])
def test_each_format_gives_back_every_cell_and_state_its_writer_put_in(name: str, fmt: str, blocks: dict) -> None:
    read = read_blueprint_file(FIXTURES / name)
    structure = read.structure
    assert read.format == fmt
    assert structure.source == name
    assert structure.size == tuple(HOUSE["size"])
    assert {p.at: p.block for p in structure.blocks} == _cells(blocks)
    assert set(structure.air) == _box(HOUSE["size"]) - set(_cells(blocks))


def test_the_states_a_placer_chooses_come_through_each_format() -> None:
    """Door hinge and half, stairs facing east on their top half, a log on its side, a top slab,
    leaves whose distance does not start at the first value (prismarine-schematic's issue #82)."""
    for name in ("house_v2.schem", "house_v3.schem", "house.litematic"):
        chosen = {p.at: BlockState.parse(p.block).chosen() for p in read_blueprint(FIXTURES / name).blocks}
        assert chosen[(0, 0, 1)] == {"facing": "east", "half": "lower", "hinge": "left", "open": "false"}
        assert chosen[(1, 0, 1)] == {"facing": "east", "half": "top"}
        assert chosen[(1, 0, 0)] == {"axis": "x"}
        assert chosen[(2, 0, 0)] == {"type": "top"}
    leaves = {p.at: p.block for p in read_blueprint(FIXTURES / "house_v2.schem").blocks}[(0, 1, 0)]
    assert BlockState.parse(leaves).properties["distance"] == "3"


def test_an_mcedit_door_takes_its_hinge_from_its_upper_half_and_its_facing_from_its_lower() -> None:
    """The legacy table alone reads the lower half (64:0) as hinge=right and the upper (64:8) as
    facing east by default; the reader completes each from the other."""
    doors = {p.at: BlockState.parse(p.block).properties for p in read_blueprint(FIXTURES / "house.schematic").blocks
             if p.block.startswith("oak_door")}
    assert {at: (d["half"], d["hinge"], d["facing"]) for at, d in doors.items()} == {
        (0, 0, 1): ("lower", "left", "east"), (0, 1, 1): ("upper", "left", "east")}


def test_the_shipped_public_house_reads_whole() -> None:
    read = read_blueprint_file(SHIPPED)
    structure = read.structure
    assert read.format == "Sponge v2"
    assert structure.size == (21, 28, 20)
    assert len(structure.blocks) == 3201
    assert len(structure.air) == 21 * 28 * 20 - 3201
    materials = structure.materials()
    assert materials["oak_door"] == 4  # 8 halves, each door's upper half comes with it
    assert materials["spruce_stairs"] == 513
    doors = [BlockState.parse(p.block) for p in structure.blocks if p.block.startswith("oak_door")]
    assert {(d.properties["half"], d.properties["hinge"]) for d in doors} >= {("lower", "left"), ("upper", "right")}
    assert len(structure.placed_at((100, 64, -20)).cells()) == 3201  # what mc-build and the check take


def test_the_public_cottage_reads_alike_from_sponge_v2_and_from_a_v3_whose_root_is_the_schematic() -> None:
    # schematic4j's v3 file names its root compound `Schematic` and holds the fields in it, not nested
    v2 = read_blueprint_file(REPO_ROOT / "server-config" / "blueprints" / "green-cottage.schem")
    v3 = read_blueprint_file(FIXTURES / "cottage-sponge-v3-root.schem")
    assert (v2.format, v3.format) == ("Sponge v2", "Sponge v3")
    assert len(v2.structure.blocks) == len(v3.structure.blocks) == 627 and v2.structure.size == (17, 12, 12)
    assert {p.at for p in v2.structure.blocks} == {p.at for p in v3.structure.blocks}
    assert v2.structure.materials()["birch_door"] == 1 and v2.structure.materials()["birch_stairs"] == 117


def test_a_region_of_negative_size_lands_where_litematica_puts_it() -> None:
    """house.litematic's upper region has sizes (-3, -2, -2) from (2, 2, 1): its cells are x 0..2,
    y 1..2, z 0..1, above the ground region at y 0."""
    structure = read_blueprint(FIXTURES / "house.litematic")
    assert {p.at for p in structure.blocks if p.at[1] > 0} == {(0, 1, 0), (1, 1, 0), (2, 1, 0), (0, 1, 1), (2, 2, 1)}


@pytest.mark.parametrize("bits", [2, 3, 5, 7, 13])
def test_litematica_entries_are_unpacked_across_the_longs_they_span(bits: int) -> None:
    values = [random.Random(bits).randrange(1 << bits) for _ in range(101)]
    packed = sum(v << (i * bits) for i, v in enumerate(values))
    longs = [(packed >> (64 * i)) & (2**64 - 1) for i in range(-(-len(values) * bits // 64))]
    signed = np.array([n - 2**64 if n >= 2**63 else n for n in longs], dtype=">i8")
    assert unpack(signed, len(values), bits, "r").tolist() == values


def test_sponge_varints_of_one_to_three_bytes() -> None:
    data = np.array([5, 0x80 | 0x2C, 0x02, 0x80 | 0x01, 0x80 | 0x00, 0x01, 127], dtype=np.uint8).astype(">i1")
    assert varints(data).tolist() == [5, 300, 1 + (1 << 14), 127]


def test_a_structure_void_is_neither_a_block_nor_air(tmp_path: Path) -> None:
    path = tmp_path / "void.schem"
    write_sponge(path, (3, 1, 1), lambda x, y, z: ["stone", "structure_void", "air"][x], version=2)
    structure = read_blueprint(path)
    assert [p.at for p in structure.blocks] == [(0, 0, 0)]
    assert structure.air == [(2, 0, 0)]


def test_every_block_of_the_mcedit_legacy_table_reads_as_one_the_game_knows() -> None:
    names = {under_todays_name(spec).split("[")[0] for spec in legacy_names().values()}
    assert names - block_names() - {"air", "cave_air", "void_air"} == set()


def test_blocks_renamed_since_the_file_was_saved_read_under_todays_names(tmp_path: Path) -> None:
    path = tmp_path / "old.schem"
    write_sponge(path, (2, 1, 1), lambda x, y, z: ["grass", "sign[rotation=4,waterlogged=false]"][x], version=2)
    assert [p.block for p in read_blueprint(path).blocks] == ["short_grass", "oak_sign[rotation=4,waterlogged=false]"]


def _one_block(corner: tuple[int, int, int], block: str) -> Region:
    return Region(corner=corner, size=(1, 1, 1), palette=[f"minecraft:{block}"], cells=np.zeros(1, dtype=np.int64))


def test_regions_apart_leave_the_cells_between_them_as_they_are() -> None:
    structure = structure_of("two", [_one_block((5, 0, 0), "stone"), _one_block((3, 2, 1), "air")])
    assert structure.size == (3, 3, 2)
    assert [(p.at, p.block) for p in structure.blocks] == [((2, 0, 0), "stone")]
    assert structure.air == [(0, 2, 1)]


def test_a_box_too_large_to_be_a_build_is_refused_before_it_is_laid_out() -> None:
    with pytest.raises(BlueprintError, match=f"spans 301 x 71 x 301 blocks, 6432671 cells: blueprints of up to "
                                             f"{MAX_BOX_CELLS} cells are read"):
        structure_of("city", [_one_block((0, 0, 0), "stone"), _one_block((300, 70, 300), "stone")])


def _error(path: Path) -> str:
    with pytest.raises(BlueprintError) as e:
        read_blueprint(path)
    message = str(e.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message


def test_a_file_that_is_not_gzip_says_so_and_names_the_formats_read(tmp_path: Path) -> None:
    path = tmp_path / "house.schem"
    path.write_text("not a schematic")
    message = _error(path)
    assert "is not gzip-compressed NBT" in message and "Litematica .litematic" in message


def test_a_damaged_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "cut.schem"
    path.write_bytes((FIXTURES / "house_v2.schem").read_bytes()[:60])
    assert "damaged gzip" in _error(path)


def test_gzipped_nbt_of_no_schematic_format_is_named(tmp_path: Path) -> None:
    path = tmp_path / "level.dat"
    File(Compound({"Data": Compound({"SpawnX": Int(0)})}), root_name="").save(path, gzipped=True)
    assert "no schematic format read here (Sponge .schem (v1, v2, v3)" in _error(path)


def test_a_sponge_version_not_read_names_the_versions_that_are(tmp_path: Path) -> None:
    path = tmp_path / "v4.schem"
    write_sponge(path, (1, 1, 1), lambda x, y, z: "stone", version=4)
    assert "Sponge schematic of version 4: versions (1, 2, 3) are read" in _error(path)


def test_blocks_the_game_does_not_know_are_named(tmp_path: Path) -> None:
    path = tmp_path / "mod.schem"
    write_sponge(path, (3, 1, 1), lambda x, y, z: ["stone", "pale_oak_log[axis=y]", "resin_block"][x], version=2)
    assert "names blocks Minecraft 1.20.4 does not know: minecraft:pale_oak_log[axis=y], minecraft:resin_block" in _error(path)


def test_a_truncated_nbt_body_is_not_well_formed(tmp_path: Path) -> None:
    path = tmp_path / "short.schem"
    path.write_bytes(gzip.compress(gzip.decompress((FIXTURES / "house_v2.schem").read_bytes())[:-40]))
    assert "is not well-formed NBT" in _error(path)


def test_mcagent_blueprint_prints_format_materials_and_each_layer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["blueprint", str(FIXTURES / "house_v3.schem")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("house_v3.schem: Sponge v3, 3 x 3 x 2 (x east, y up, z south), 10 blocks, 8 air")
    assert "       1  oak_door\n" in out and "       1  torch\n" in out
    layer0 = out.split("y=0 (north at the top, east to the right):\n")[1].split("\n\n")[0]
    kinds = dict(line.split() for line in out.split("legend:")[1].split("\n\n")[0].splitlines()[1:])
    assert [[kinds.get(c, c) for c in row.strip()] for row in layer0.splitlines()] == [
        ["stone", "oak_log", "oak_slab"], ["oak_door", "oak_stairs", "."]]


def test_mcagent_blueprint_on_a_bad_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    assert main(["blueprint", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"mcagent blueprint: {path}: is not gzip-compressed NBT")
