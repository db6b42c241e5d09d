"""mc-map on the real server, checked against the room scenario's geometry: the frontiers it
reports, their walking moves, the picture, the map that observing and moving tools feed, and
the map file a resumed run reads back."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

import pytest

from agent.tools import Executor
from agent.world.spatial import SpatialMemory, memory_of
from support.geometry import World
from support.world_body import Body, scenario_body

RADIUS = 8
SPAWN = (0, 5, 0)  # the room's floor is y = 4: the feet block at its centre


@pytest.fixture(scope="module")
def room(toolbox) -> Iterator[Body]:
    yield from scenario_body("room", "mapper", toolbox)


def standable(world: World, x: int, z: int, y: int = 5) -> bool:
    return world.passable(x, y, z) and world.passable(x, y + 1, z) and not world.passable(x, y - 1, z)


def walking_moves(world: World, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Moves on the flat ground level (y = 5) within the radius, from the geometry alone."""
    moves, queue = {start: 0}, deque([start])
    while queue:
        x, z = queue.popleft()
        for n in ((x + 1, z), (x - 1, z), (x, z + 1), (x, z - 1)):
            if max(abs(n[0]), abs(n[1])) <= RADIUS and n not in moves and standable(world, *n):
                moves[n] = moves[(x, z)] + 1
                queue.append(n)
    return moves


def expected_frontiers(world: World) -> dict[tuple[int, int, int], int]:
    """By hand: through the doorway the bot sees all the open ground the survey box holds, and the
    box ends RADIUS blocks out. So the places to stand on the box's outer ring border unknown
    space, and nothing else does: the room is closed but for the doorway, and the roof hides
    nothing the bot can reach. Each is worth its walking moves out of the doorway and round."""
    moves = walking_moves(world, (SPAWN[0], SPAWN[2]))
    ring = [(x, z) for x in range(-RADIUS, RADIUS + 1) for z in range(-RADIUS, RADIUS + 1) if max(abs(x), abs(z)) == RADIUS]
    return {(x, 5, z): moves[(x, z)] for x, z in ring if standable(world, x, z)}


def expected_picture(world: World, facing_glyph: str) -> list[str]:
    rows = []
    for z in range(-RADIUS, RADIUS + 1):
        row = ""
        for x in range(-RADIUS, RADIUS + 1):
            ring = max(abs(x), abs(z)) == RADIUS
            row += facing_glyph if (x, z) == (0, 0) else "#" if not world.passable(x, 5, z) else "+" if ring else "."
        rows.append(row)
    return rows


def test_the_rooms_frontiers_and_picture_match_the_geometry(room: Body) -> None:
    room.teleport(0.5, 5, 0.5, "east")
    room.executor.world_map = SpatialMemory.open(None)  # only what this call sees
    seen = room.ok("mc-map", radius=RADIUS)
    expected = expected_frontiers(room.world)
    assert len(expected) == 64 and seen["frontier_count"] == seen["reachable_frontiers"] == len(expected)
    listed = {(f["x"], f["y"], f["z"]): f["moves"] for f in seen["frontiers"]}
    assert all(expected[cell] == moves for cell, moves in listed.items())
    assert [f["moves"] for f in seen["frontiers"]] == sorted(expected.values())[: len(listed)]
    nearest = seen["frontiers"][0]  # out of the north doorway and straight on: north is the bot's left
    assert (nearest["x"], nearest["z"], nearest["forward"], nearest["right"], nearest["bearing"]) == (0, -8, 0, -8, "left")
    assert seen["picture"] == expected_picture(room.world, ">")
    assert seen["feet"] == dict(zip("xyz", SPAWN)) and seen["facing"] == "east"


def test_observing_and_moving_feed_the_map(room: Body) -> None:
    room.teleport(0.5, 5, 0.5, "north")
    room.executor.world_map = None  # the tools start one
    room.ok("mc-observe-blocks")
    memory = memory_of(room.executor)
    assert memory.visits(*SPAWN) == 1 and memory.known_cells() > 0
    room.ok("mc-move", blocks=5)  # out of the doorway
    assert memory.visits(0, 5, -5) == 1 and memory.sky(0, 5, -5) and not memory.sky(*SPAWN)
    assert (0, 5, -13) in {(f.x, f.y, f.z) for f in memory.frontiers((0, 5, -5), radius=RADIUS)}


def test_the_map_file_survives_reopening(room: Body, tmp_path) -> None:
    room.teleport(0.5, 5, 0.5, "south")
    path = tmp_path / "map.sqlite"
    executor = Executor(room.executor.toolbox, room.executor.infospace, world=room.bot, world_map=SpatialMemory.open(path))
    before = executor.execute_action({"type": "mc-map"})
    assert before.ok
    executor.world_map.close()
    again = SpatialMemory.open(path)
    assert again.known_cells() == before.data["known_cells"] and again.visits(*SPAWN) == 1
    assert len(again.frontiers(SPAWN, radius=RADIUS)) == before.data["frontier_count"]
