"""The game's placement rules (bridge/lib/placing-rules.js), run in Node: what a click places, a
door's hinge from its neighbours and the cursor (vanilla's DoorBlock.getHinge), when a slab
clicked becomes double, the placer's facing read from where it stands, and the one it needs."""

from __future__ import annotations

import json
import subprocess

import pytest

from agent.node import node_binary
from agent.paths import BRIDGE_DIR

SCRIPT = """
const r = require('./lib/placing-rules')
const calls = JSON.parse(process.argv[1])
console.log(JSON.stringify(calls.map(([name, args]) => r[name](...args))))
"""

NONE = {"left": 0, "right": 0, "leftDoor": False, "rightDoor": False}
MIDDLE = {"x": 0.5, "y": 0.5, "z": 0.5}


def run(*calls: tuple[str, list]) -> list:
    done = subprocess.run([node_binary(), "-e", SCRIPT, json.dumps(calls)], capture_output=True, text=True,
                          cwd=BRIDGE_DIR, check=True, timeout=30)
    return json.loads(done.stdout)


def click(face: str, y: float = 0.5, facing: str = "north", x: float = 0.5, z: float = 0.5) -> dict:
    return {"face": face, "at": {"x": x, "y": y, "z": z}, "facing": facing}


@pytest.mark.parametrize(("name", "made", "placed"), [
    ("torch", click("up", 0), {"name": "torch", "state": {}}),
    ("torch", click("east"), {"name": "wall_torch", "state": {"facing": "east"}}),
    ("soul_torch", click("north"), {"name": "soul_wall_torch", "state": {"facing": "north"}}),
    ("torch", click("down", 1), None),
    ("oak_slab", click("up", 0), {"name": "oak_slab", "state": {"type": "bottom"}}),
    ("oak_slab", click("down", 1), {"name": "oak_slab", "state": {"type": "top"}}),
    ("oak_slab", click("west", 0.75), {"name": "oak_slab", "state": {"type": "top"}}),
    ("oak_trapdoor", click("south", 0.75), {"name": "oak_trapdoor", "state": {"facing": "south", "half": "top", "open": "false"}}),
    ("oak_trapdoor", click("up", 0, facing="west"), {"name": "oak_trapdoor", "state": {"facing": "east", "half": "bottom", "open": "false"}}),
    ("oak_trapdoor", click("down", 1, facing="west"), {"name": "oak_trapdoor", "state": {"facing": "east", "half": "top", "open": "false"}}),
    ("oak_stairs", click("east", 0.75, facing="south"), {"name": "oak_stairs", "state": {"facing": "south", "half": "top"}}),
    ("oak_log", click("east"), {"name": "oak_log", "state": {"axis": "x"}}),
])
def test_what_a_click_places(name: str, made: dict, placed: dict | None) -> None:
    props = {"oak_stairs": {"facing": True, "half": True, "shape": True, "waterlogged": True}, "oak_log": {"axis": True}}.get(name, {})
    assert run(("placedState", [name, props, made, None])) == [placed]


@pytest.mark.parametrize(("facing", "at", "sides", "hinge"), [
    ("north", {"x": 0.25, "z": 0.5}, NONE, "left"),  # the west half, on the placer's left
    ("north", {"x": 0.75, "z": 0.5}, NONE, "right"),
    ("south", {"x": 0.25, "z": 0.5}, NONE, "right"),  # west is the right of a placer facing south
    ("east", {"x": 0.5, "z": 0.25}, NONE, "left"),
    ("west", {"x": 0.5, "z": 0.25}, NONE, "right"),
    ("north", {"x": 0.75, "z": 0.5}, {**NONE, "left": 1}, "left"),  # a wall on the left outweighs the click
    ("north", {"x": 0.25, "z": 0.5}, {**NONE, "right": 2}, "right"),
    ("north", {"x": 0.25, "z": 0.5}, {**NONE, "left": 1, "right": 1}, "left"),  # even: the click decides
    ("north", {"x": 0.25, "z": 0.5}, {**NONE, "leftDoor": True}, "right"),  # away from a door beside: a double door
    ("north", {"x": 0.75, "z": 0.5}, {**NONE, "rightDoor": True}, "left"),
    ("north", {"x": 0.75, "z": 0.5}, {**NONE, "leftDoor": True, "rightDoor": True}, "right"),
])
def test_a_doors_hinge(facing: str, at: dict, sides: dict, hinge: str) -> None:
    assert run(("hingeOf", [facing, {**at, "y": 0}, sides])) == [hinge]


def test_the_hinge_neighbours_are_left_and_right_of_the_placer_at_both_halves() -> None:
    assert run(("hingeNeighbours", ["north"]), ("hingeNeighbours", ["east"])) == [
        {"left": [[-1, 0, 0], [-1, 1, 0]], "right": [[1, 0, 0], [1, 1, 0]]},
        {"left": [[0, 0, -1], [0, 1, -1]], "right": [[0, 0, 1], [0, 1, 1]]},
    ]


@pytest.mark.parametrize(("type_", "face", "y", "doubles"), [
    ("bottom", "up", 0.5, True), ("bottom", "down", 0, False), ("bottom", "east", 0.75, True), ("bottom", "east", 0.25, False),
    ("top", "down", 0.5, True), ("top", "up", 1, False), ("top", "west", 0.25, True), ("double", "up", 1, False),
])
def test_a_slab_clicked_becomes_double(type_: str, face: str, y: float, doubles: bool) -> None:
    assert run(("doublesSlab", [type_, face, {**MIDDLE, "y": y}])) == [doubles]


def test_the_placers_facing_is_the_way_from_it_to_the_cell() -> None:
    cell = {"x": 10, "y": 5, "z": 10}
    stands = [{"x": 10.5, "z": 13}, {"x": 10.5, "z": 8}, {"x": 7, "z": 10.5}, {"x": 13, "z": 10.9}]
    assert run(*(("placerFacing", [s, cell]) for s in stands)) == ["north", "south", "east", "west"]


@pytest.mark.parametrize(("wanted", "facing"), [
    ({"name": "oak_stairs", "state": {"facing": "east", "half": "top"}}, "east"),
    ({"name": "oak_door", "state": {"facing": "south"}}, "south"),
    ({"name": "oak_trapdoor", "state": {"facing": "south", "half": "top"}}, "north"),
    ({"name": "wall_torch", "state": {"facing": "west"}}, "east"),
    ({"name": "oak_log", "state": {"axis": "x"}}, None),
    ({"name": "oak_slab", "state": {"type": "top"}}, None),
])
def test_the_facing_a_state_needs_of_its_placer(wanted: dict, facing: str | None) -> None:
    assert run(("facingNeeded", [wanted])) == [facing]


def test_the_item_that_places_a_block() -> None:
    names = ["wall_torch", "soul_wall_torch", "oak_wall_sign", "cobblestone_wall", "oak_stairs"]
    assert run(*(("itemOf", [n]) for n in names)) == ["torch", "soul_torch", "oak_sign", "cobblestone_wall", "oak_stairs"]
