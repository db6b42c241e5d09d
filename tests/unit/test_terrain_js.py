"""Reading terrain ahead in Node, on a fake bot over a superflat world (no server): the
observation's step_up_ahead and the grid step's walk plan (bridge/helpers/observe-blocks.js, move.js).

The world: bedrock y=0, dirt 1-3, grass 4, air above, then the case's blocks; the bot's feet
are at (0, 5, 0) facing south (+z), so forward k is z=k and up u is y=5+u."""

from __future__ import annotations

import json
import subprocess

import pytest

from agent.node import node_binary
from agent.paths import BRIDGE_DIR

SCRIPT = """
const { Vec3 } = require('vec3')
const registry = require('prismarine-registry')('1.20.4')
const { observe } = require('./helpers/observe-blocks')
const { planWalk } = require('./helpers/move')
const { frameOf } = require('./helpers/frame')
const { reader } = require('./helpers/blocks')

function fakeBot (blocks) {
  const ground = (y) => y === 0 ? 'bedrock' : y < 4 ? 'dirt' : y === 4 ? 'grass_block' : 'air'
  const set = new Map(blocks.map(([name, x, y, z]) => [`${x},${y},${z}`, name]))
  const nameAt = (p) => set.get(`${p.x},${p.y},${p.z}`) ?? ground(p.y)
  return {
    registry,
    entity: { position: new Vec3(0.5, 5, 0.5), yaw: Math.PI },
    game: { minY: -64, height: 384 },
    world: { getBlockStateId: (p) => registry.blocksByName[nameAt(p)].defaultState }
  }
}

const out = JSON.parse(process.argv[1]).map(({ blocks, walk, max_drop: maxDrop }) => {
  const bot = fakeBot(blocks)
  if (!walk) return observe(bot, { radius: 2 }).step_up_ahead
  const frame = frameOf(bot)
  const at = reader(bot)
  return planWalk((f, r, u) => at(frame.toWorld(f, r, u)), walk, maxDrop ?? 3)
})
console.log(JSON.stringify(out))
"""


def column(name: str, z: int, ys: range) -> list:
    return [[name, 0, y, z] for y in ys]


# name: (blocks, step_up_ahead)
OBSERVED = {
    "flat": ([], False),
    "one block ahead": (column("stone", 1, range(5, 6)), True),
    "two blocks ahead, a wall": (column("stone", 1, range(5, 7)), False),
    "one block ahead, roof over the head": (column("stone", 1, range(5, 6)) + column("stone", 0, range(7, 8)), False),
    "one block ahead, roof over the step": (column("stone", 1, range(5, 6)) + column("stone", 1, range(7, 8)), False),
}

# name: (blocks, blocks to walk, max_drop, feet levels walked, stop)
PLANNED = {
    "flat": ([], 3, 3, [0, 0, 0, 0], None),
    "a step up": (column("stone", 2, range(5, 6)) + column("stone", 3, range(5, 6)), 3, 3, [0, 0, 1, 1], None),
    "a wall": (column("stone", 2, range(5, 7)), 3, 3, [0, 0], {"reason": "collision", "block": "stone", "distance": 2}),
    "a 2-deep hole": (column("air", 2, range(3, 5)), 2, 3, [0, 0, -2], None),
    "a 4-deep hole": (column("air", 2, range(1, 5)), 3, 3, [0, 0],
                      {"reason": "drop_ahead", "block": None, "distance": 2, "depth": 4}),
    "a 4-deep hole, max_drop 4": (column("air", 2, range(1, 5)), 2, 4, [0, 0, -4], None),
    "lava in the floor": (column("lava", 3, range(4, 5)), 4, 3, [0, 0, 0],
                          {"reason": "hazard_ahead", "block": "lava", "distance": 3}),
    "fire at the feet": (column("fire", 1, range(5, 6)), 2, 3, [0], {"reason": "hazard_ahead", "block": "fire", "distance": 1}),
    "lava under a 2-deep hole": (column("air", 1, range(3, 5)) + column("lava", 1, range(2, 3)), 1, 3, [0],
                                 {"reason": "hazard_ahead", "block": "lava", "distance": 1}),
    "a puddle": (column("water", 1, range(4, 5)), 2, 3, [0, -1, 0], None),
    "water over the head": (column("water", 1, range(2, 5)), 2, 3, [0],
                            {"reason": "hazard_ahead", "block": "water", "distance": 1}),
}


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    cases = [{"blocks": b} for b, _ in OBSERVED.values()]
    cases += [{"blocks": b, "walk": n, "max_drop": d} for b, n, d, _, _ in PLANNED.values()]
    done = subprocess.run([node_binary(), "-e", SCRIPT, json.dumps(cases)], capture_output=True, text=True,
                          cwd=BRIDGE_DIR, check=True)
    return dict(zip([*OBSERVED, *(f"plan: {n}" for n in PLANNED)], json.loads(done.stdout)))


@pytest.mark.parametrize("name", OBSERVED)
def test_step_up_ahead_is_a_climbable_step_only(results: dict, name: str) -> None:
    assert results[name] is OBSERVED[name][1]


@pytest.mark.parametrize("name", PLANNED)
def test_the_walk_plan_climbs_drops_and_stops_before_what_it_must(results: dict, name: str) -> None:
    _, _, _, levels, stop = PLANNED[name]
    assert results[f"plan: {name}"] == {"levels": levels, "stop": stop}
