"""What `mcagent run --blueprint FILE` is given before any world starts (agent/session/blueprint.py,
agent/blueprint/site.py): the structure in front of the spawn, its near side two blocks ahead and
centred across whichever way the spawn faces, or at --at; its bill of materials at spawn with
--materials given; the blueprint check with states as the goal check. Bad files and bad flags end
in one line and exit 2 before anything starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.blueprint.site import in_front
from agent.cli import main
from agent.server import load_scenario
from agent.session import WorldOptions
from agent.session.blueprint import blueprint_build

TASKS = Path(__file__).resolve().parent.parent / "fixtures" / "eval" / "mindcraft_construction.json"


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    """The bench task's blueprint as a file of its own: 3 planks, a cobblestone on the middle one."""
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(json.loads(TASKS.read_text())["a_bench"]["blueprint"]))
    return path


@pytest.mark.parametrize(("facing", "corner"), [
    ("south", (9, 5, 22)), ("north", (9, 5, 15)), ("east", (12, 5, 18)), ("west", (6, 5, 18)),
])
def test_in_front_is_two_blocks_ahead_and_centred_across(facing: str, corner: tuple[int, int, int]) -> None:
    # a 3 x 1 x 4 box for feet in (10, 5, 20): ahead its near side is two cells away, across its middle is the feet's
    assert in_front((10, 5, 20), facing, (3, 1, 4)) == corner


def test_the_flat_field_takes_the_build_with_its_materials_and_the_check(bench: Path) -> None:
    build = blueprint_build(bench, WorldOptions(), at=None, materials_given=True, local=True)
    scenario = build.world.scenario
    assert scenario is not None and scenario.name == "flat"
    assert build.check.blueprint.anchor == (-1, 5, 2)
    assert scenario.success == build.check and scenario.goal == build.goal
    assert [(i.name, i.count) for i in scenario.inventory] == [("oak_planks", 3), ("cobblestone", 1), ("dirt", 64)]  # and dirt to scaffold with
    assert len(build.cells.blocks) == 12 and build.cells.anchor == (-1, 5, 2)


def test_at_and_a_scenario_of_ones_own_are_kept(bench: Path) -> None:
    world = WorldOptions(scenario=load_scenario("wall"))
    build = blueprint_build(bench, world, at=(7, 6, -3), materials_given=False, local=True)
    assert build.check.blueprint.anchor == (7, 6, -3)
    assert build.world.scenario is not None and build.world.scenario.name == "wall"
    assert [(i.name, i.count) for i in build.world.scenario.inventory] == [("dirt", 8)]


@pytest.mark.parametrize(("flags", "says"), [
    (["--blueprint", "missing.json"], "blueprint missing.json does not exist"),
    (["--blueprint", "{bench}", "--at", "1,2"], "--at: expected X,Y,Z in whole blocks"),
    (["--blueprint", "{bench}", "--goal", "dig"], "--blueprint states the goal and its check"),
    (["--at", "1,2,3"], "--at and --materials go with --blueprint FILE"),
    (["--blueprint", "{bench}", "--server", "example.org:25565"], "needs --at X,Y,Z"),
    (["--blueprint", "{not_json}"], "not readable JSON"),
    (["--blueprint", "{schem}"], "is a damaged gzip file"),
])
def test_bad_files_and_flags_are_one_line_and_exit_2(bench: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     flags: list[str], says: str) -> None:
    (tmp_path / "bad.json").write_text("{levels")
    (tmp_path / "hut.schem").write_bytes(b"\x1f\x8b")
    names = {"bench": bench, "not_json": tmp_path / "bad.json", "schem": tmp_path / "hut.schem"}
    assert exit_code(["run", *(flag.format(**names) for flag in flags)]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err, err


def exit_code(argv: list[str]) -> int:
    """mcagent's exit code for `argv`, whether the parser exits or the command returns."""
    try:
        return main(argv)
    except SystemExit as ended:
        return int(ended.code or 0)
