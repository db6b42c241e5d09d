"""The bridge's survey on a fake bot (no server): sight by connectivity, plants as free space,
hazards known but not seen through, unloaded chunks unknown, and each column's sky
(bridge/helpers/map.js).

The world: bedrock y=0, dirt 1-3, grass_block 4, air above, then the case's blocks; chunks
with z < -1 are not loaded. The bot's feet are at (0, 5, 0) facing east; the survey box is
x and z -2..2, y 3..7 (radius 2, up 2, down 2)."""

from __future__ import annotations

import json
import subprocess

import pytest

from agent.node import node_binary
from agent.paths import BRIDGE_DIR
from agent.world.spatial import Kind, Survey

SCRIPT = """
const { Vec3 } = require('vec3')
const registry = require('prismarine-registry')('1.20.4')
const { survey } = require('./helpers/map')

const blocks = JSON.parse(process.argv[1])
const ground = (y) => y === 0 ? 'bedrock' : y < 4 ? 'dirt' : y === 4 ? 'grass_block' : 'air'
const set = new Map(blocks.map(([name, x, y, z]) => [`${x},${y},${z}`, name]))
const loaded = (p) => p.z >= -1
const bot = {
  registry,
  entity: { position: new Vec3(0.5, 5, 0.5), yaw: -Math.PI / 2 },
  game: { minY: -64, height: 384 },
  world: {
    getBlockStateId: (p) => loaded(p) ? registry.blocksByName[set.get(`${p.x},${p.y},${p.z}`) ?? ground(p.y)].defaultState : undefined,
    getColumnAt: (p) => loaded(p) ? {} : undefined
  }
}
console.log(JSON.stringify(survey(bot, { radius: 2, up: 2, down: 2 })))
"""

WALL = [["stone", 1, y, z] for y in range(5, 8) for z in range(-2, 3)]  # x = 1, up to the box's top
PLANTS = [["short_grass", -1, 5, 0], ["poppy", 0, 5, 1]]
LAVA = [["lava", -2, 5, 2]]
ROOF = [["stone", -1, 9, 1]]  # above the box, over one column


@pytest.fixture(scope="module")
def seen() -> Survey:
    done = subprocess.run([node_binary(), "-e", SCRIPT, json.dumps(WALL + PLANTS + LAVA + ROOF)], cwd=BRIDGE_DIR,
                          capture_output=True, text=True, timeout=60, check=True)
    return Survey.model_validate_json(done.stdout)


def kind(s: Survey, x: int, y: int, z: int) -> Kind:
    return Kind(s.kinds()[x - s.origin.x, y - s.origin.y, z - s.origin.z])


def test_the_box_feet_and_facing_are_in_world_blocks(seen):
    assert (seen.origin.x, seen.origin.y, seen.origin.z, seen.size) == (-2, 3, -2, (5, 5, 5))
    assert (seen.feet.x, seen.feet.y, seen.feet.z, seen.facing) == (0, 5, 0, "east")


def test_walls_are_known_and_what_is_behind_them_is_not(seen):
    assert all(kind(seen, 1, y, z) == Kind.SOLID for y in range(5, 8) for z in (-1, 0, 1, 2))
    assert all(kind(seen, 2, y, z) == Kind.UNKNOWN for y in range(3, 8) for z in range(-2, 3))
    assert kind(seen, 0, 4, 0) == Kind.SOLID and kind(seen, 0, 3, 0) == Kind.UNKNOWN  # the ground, not what is under it


def test_plants_are_free_space_and_hazards_are_known_but_not_passed(seen):
    assert kind(seen, -1, 5, 0) == kind(seen, 0, 5, 1) == Kind.FREE
    assert kind(seen, -2, 5, 2) == Kind.HAZARD
    assert kind(seen, -2, 4, 2) == Kind.UNKNOWN  # under the lava: only reached through it


def test_unloaded_chunks_are_unknown(seen):
    assert all(kind(seen, x, y, -2) == Kind.UNKNOWN for x in range(-2, 3) for y in range(3, 8))
    assert kind(seen, 0, 5, -1) == Kind.FREE


def test_each_column_is_open_to_the_sky_above_its_highest_opaque_block(seen):
    sky = seen.sky()
    assert sky[2, 5 - 3, 2] and not sky[2, 4 - 3, 2]  # the bot's column: open from y = 5, above the ground
    assert not sky[-1 + 2, 7 - 3, 1 + 2]  # under the roof at y = 9
    assert seen.sky_from[(1 + 2) * 5 + (0 + 2)] == 8  # the wall's column (1, 0): open above its top, y = 7
