"""The scenario model's task keys (goal, success, inventory) and how an eval seed varies a scenario."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.errors import ConfigError
from agent.mc.frame import to_world
from agent.mc.transform import Transform
from agent.server import Scenario, load_scenario
from agent.server.scenario import scenario_names
from support.geometry import World

BASE = "name: t\ndescription: d\nspawn: {x: 0.5, y: 5, z: 0.5, facing: north}\n"


def _load(tmp_path: Path, text: str) -> Scenario:
    (tmp_path / "s.yaml").write_text(BASE + text)
    return load_scenario(str(tmp_path / "s.yaml"))


def test_goal_success_and_inventory_load(tmp_path: Path) -> None:
    s = _load(tmp_path, "goal: get out\nsuccess: {all: [{sky_visible: true}, {feet_y_at_least: 5}]}\n"
              "inventory: [{name: dirt, count: 16}, {name: stone_pickaxe}]\n")
    assert s.goal == "get out"
    assert s.success is not None and s.success.describe() == "all(sky_visible, feet_y_at_least 5)"
    assert [(i.name, i.count) for i in s.inventory] == [("dirt", 16), ("stone_pickaxe", 1)]


def test_the_keys_are_optional(tmp_path: Path) -> None:
    s = _load(tmp_path, "")
    assert (s.goal, s.success, s.inventory) == (None, None, [])


def test_a_bad_success_check_is_one_line_naming_the_file_and_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, "success: {all: [{sky_visible: true}, {within: {x: 0, y: 5, z: 0}}]}\n")
    assert str(caught.value) == f"{tmp_path / 's.yaml'}: success.all[1].within: missing key 'distance'"
    with pytest.raises(ConfigError, match=r"s.yaml: success: unknown predicate 'sky_visable' \(accepted: all, any, not,"):
        _load(tmp_path, "success: {sky_visable: true}\n")


@pytest.mark.parametrize(
    ("inventory", "message"),
    [
        ("[{name: Dirt, count: 1}]", r"inventory.0.name: String should match pattern '\^\[a-z0-9_\]\+\$'"),
        ("[{name: dirt, count: 0}]", r"inventory.0.count: Input should be greater than or equal to 1"),
        ("[{name: dirt, count: 2305}]", r"inventory.0.count: Input should be less than or equal to 2304"),
        ("[{name: dirt, amount: 2}]", r"unknown key 'inventory.0.amount'"),
    ],
)
def test_bad_inventory_items_name_the_key(tmp_path: Path, inventory: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        _load(tmp_path, f"inventory: {inventory}\n")


def test_the_json_the_server_gets_has_the_new_keys_in_their_yaml_form() -> None:
    pit = load_scenario("pit")
    sent = json.loads(json.dumps(pit.model_dump(mode="json", by_alias=True)))
    assert sent["success"] == {"all": [{"feet_y_at_least": 5.0}, {"standing_on_ground": True}]}
    assert sent["goal"] and sent["inventory"] == []
    assert Scenario.model_validate(sent) == pit


def test_cave_and_pit_have_goals_and_checks() -> None:
    cave, pit = load_scenario("cave"), load_scenario("pit")
    assert cave.goal == "explore the area until you find open sky"
    assert cave.success is not None and cave.success.describe() == "sky_visible"
    assert pit.success is not None and pit.success.describe() == "all(feet_y_at_least 5, standing_on_ground)"


def test_seed_0_is_the_file_as_written() -> None:
    cave = load_scenario("cave")
    assert cave.transformed(0) is cave


def test_a_quarter_turn_moves_the_cave_west_with_its_check(tmp_path: Path) -> None:
    """Seed 1 turns once clockwise about the spawn block (0, 0): south (+z) becomes west (-x)."""
    cave = _load(tmp_path, "boxes: [{block: stone, from: [-1, 5, -1], to: [1, 7, 9]}]\n"
                 "blocks: [{block: air, at: [0, 5, 9]}]\n"
                 "success: {all: [{outside: {from: [-1, 5, -1], to: [1, 7, 9]}}, {within: {x: 0.5, y: 5, z: 12.5, distance: 2}}]}\n")
    assert Transform.for_seed(1, 0.5, 0.5).quarter_turns == 1
    turned = cave.transformed(1)
    assert (turned.boxes[0].from_, turned.boxes[0].to) == ((1, 5, -1), (-9, 7, 1))
    assert turned.blocks[0].at == (-9, 5, 0)
    assert turned.success is not None
    assert turned.success.describe() == "all(outside x -9..1 y 5..7 z -1..1, within 2 of (-11.5, 5, 0.5))"
    assert (turned.spawn.x, turned.spawn.y, turned.spawn.z) == (0.5, 5, 0.5)
    assert turned.spawn.facing == Transform.for_seed(1, 0.5, 0.5).spawn("north")


@pytest.mark.parametrize("seed", range(1, 9))
@pytest.mark.parametrize("name", scenario_names())
def test_every_seed_moves_blocks_spawn_and_check_together(name: str, seed: int) -> None:
    original = load_scenario(name)
    varied = original.transformed(seed)
    t = Transform.for_seed(seed, original.spawn.x, original.spawn.z)
    before, after = World(original), World(varied)
    assert len(after.changes) == len(before.changes)
    for cell, block in before.changes.items():
        assert after.block(*t.cell(*cell)) == block, cell
    spawn = varied.spawn
    assert (spawn.x, spawn.y, spawn.z) == t.point(original.spawn.x, original.spawn.y, original.spawn.z)
    if original.success is not None:
        assert varied.success == original.success.transformed(t)
    assert Scenario.model_validate(varied.model_dump(mode="json", by_alias=True)) == varied


@pytest.mark.parametrize("seed", range(8))
def test_a_spawn_that_keeps_its_facing_turns_it_with_the_world(seed: int) -> None:
    """The pillar's goal says "two blocks in front of you": under every seed the blueprint it
    checks stands two blocks along the spawn facing, where another scenario's seed picks one."""
    pillar = load_scenario("pillar").transformed(seed)
    assert pillar.success is not None
    dx, dz = to_world(2, 0, pillar.spawn.facing)
    assert pillar.success.blueprint.anchor == (dx, 5, dz)
