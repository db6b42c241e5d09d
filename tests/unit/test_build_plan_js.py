"""mc-build's order and its way out (bridge/helpers/build-order.js, build-exit.js), run in Node
over a world of plain cells: bottom up, the far side of a layer first, what hangs on blocks after
them and doors last; a room's last gap is placed only from outside it, unless it is a door placed
open; a pillar of scaffolding is a way down (the bot digs it under its feet); and a stand over
open air inside is one a tower reaches, while the tower's foot leads out."""

from __future__ import annotations

import json
import subprocess

from agent.node import node_binary
from agent.paths import BRIDGE_DIR

# A fake bot over `solid` cells (everything at y < 5 is ground): blockAt gives a boundingBox.
SCRIPT = """
const { Vec3 } = require('vec3')
const registry = require('minecraft-data')('1.20.4')
const { planOf, placingOrder } = require('./helpers/build-order')
const { regionOf, wayOut } = require('./helpers/build-exit')
const [cells, solid, exit, fill, feet, scaffold] = JSON.parse(process.argv[1])
const taken = new Set([...solid, ...scaffold].map((c) => c.join(',')))
const bot = {
  registry,
  blockAt: (p) => ({ name: 'x', boundingBox: p.y < 5 || taken.has(`${p.x},${p.y},${p.z}`) ? 'block' : 'empty', getProperties: () => ({}) })
}
const plan = planOf(bot, cells.map(([x, y, z, block]) => ({ x, y, z, block })))
const order = placingOrder(plan, new Vec3(...exit)).map((c) => [c.pos.x, c.pos.y, c.pos.z])
const cell = plan.find((c) => c.key === fill.join(','))
const allowed = wayOut(bot, regionOf(plan), cell, new Set(scaffold.map((c) => c.join(','))))
console.log(JSON.stringify({ order, allowed: feet.map(([x, y, z]) => allowed({ x, y, z })) }))
"""


def _run(cells, solid, exit, fill, feet, scaffold=()) -> dict:
    args = json.dumps([cells, solid, exit, fill, feet, list(scaffold)])
    done = subprocess.run([node_binary(), "-e", SCRIPT, args], capture_output=True, text=True, cwd=BRIDGE_DIR, check=True)
    return json.loads(done.stdout)


def _room() -> list[list]:
    """A 3 x 3 ring of stone two high around (1, 5, 1), a door in it at (1, 5..6, 0) and a torch inside."""
    ring = [[x, y, z, "stone"] for y in (5, 6) for x in range(3) for z in range(3)
            if (x, z) != (1, 1) and (x, z) != (1, 0)]
    return ring + [[1, 5, 0, "oak_door[half=lower]"], [1, 6, 0, "oak_door[half=upper]"], [1, 6, 1, "torch"]]


def test_the_order_is_bottom_up_far_side_first_then_hung_blocks_then_doors() -> None:
    got = _run(_room(), [], [1, 5, 0], [1, 5, 0], [])
    order = got["order"]
    assert order[-1] == [1, 5, 0] and order[-2] == [1, 6, 1]  # the door last, the torch before it
    levels = [y for _, y, _ in order[:-2]]
    assert levels == sorted(levels)
    first = order[:7]
    assert all(z == 2 for _, _, z in first[:3])  # the far side (from the door, at z 0) first


def test_the_gap_that_closes_the_room_is_placed_from_outside_it() -> None:
    walls = [c[:3] for c in _room() if c[3] == "stone"]
    inside, outside, on_top = [1, 5, 1], [1, 5, -1], [1, 7, 1]
    got = _run(_room(), walls, [1, 5, 0], [1, 5, 0], [inside, outside, on_top])
    assert got["allowed"] == [False, True, True]
    # A wall cell that leaves the doorway open may be placed from inside.
    open_room = [c[:3] for c in _room() if c[3] == "stone" and c[:3] != [0, 5, 1]]
    got = _run(_room(), open_room, [1, 5, 0], [0, 5, 1], [inside])
    assert got["allowed"] == [True]


def test_a_door_placed_open_leaves_the_room_a_way_out() -> None:
    room = [c if c[3] != "oak_door[half=lower]" else [*c[:3], "oak_door[half=lower,open=true]"] for c in _room()]
    walls = [c[:3] for c in room if c[3] == "stone"]
    got = _run(room, walls, [1, 5, 0], [1, 5, 0], [[1, 5, 1]])
    assert got["allowed"] == [True]


def test_a_pillar_of_scaffolding_higher_than_a_drop_is_a_way_down() -> None:
    # The room's walls and a corner column up to y 12 (the build's top); inside, a pillar of
    # scaffolding from y 5 to 11: its top is 5 over the walls' top, past a drop.
    room = _room() + [[0, y, 0, "stone"] for y in range(7, 13)]
    walls = [c[:3] for c in room if c[3] == "stone"]
    pillar = [[1, y, 1] for y in range(5, 12)]
    cells = [c for c in room if c[:3] != [1, 6, 1]]  # no torch in the pillar's way
    on_top = [1, 12, 1]
    assert _run(cells, walls + pillar, [1, 5, 0], [0, 12, 0], [on_top])["allowed"] == [False]
    assert _run(cells, walls, [1, 5, 0], [0, 12, 0], [on_top], pillar)["allowed"] == [True]


def test_a_stand_over_open_air_inside_is_one_a_tower_reaches_while_its_foot_leads_out() -> None:
    # The room's doorway open: a stand at y 7 (the build's top) over the open inside is reached
    # by towering from the floor at (1, 5, 1), and dug back down to it; with the doorway closed
    # the foot leads nowhere.
    walls = [c[:3] for c in _room() if c[3] == "stone"]
    high_inside = [1, 7, 1]
    cells = [c for c in _room() if c[:3] != [1, 6, 1]] + [[0, 7, 0, "stone"]]
    assert _run(cells, walls, [1, 5, 0], [0, 7, 0], [high_inside])["allowed"] == [True]
    assert _run(cells, walls + [[1, 5, 0], [1, 6, 0]], [1, 5, 0], [0, 7, 0], [high_inside])["allowed"] == [False]


# nextStep over a world of plain cells (air above y 5's ground, stone where `solid` says), the
# bot's feet at `feet`, stone carried; `here` the cells the bot may place from where it stands.
NEXT = """
const { Vec3 } = require('vec3')
const registry = require('minecraft-data')('1.20.4')
const { planOf, placingOrder, nextStep } = require('./helpers/build-order')
const [cells, solid, feet, here] = JSON.parse(process.argv[1])
const taken = new Set(solid.map((c) => c.join(',')))
const block = (p) => p.y < 5 || taken.has(`${p.x},${p.y},${p.z}`)
  ? { name: 'stone', boundingBox: 'block', getProperties: () => ({}) }
  : { name: 'air', boundingBox: 'empty', getProperties: () => ({}) }
const bot = { registry, blockAt: block, entity: { position: new Vec3(...feet) }, inventory: { items: () => [{ name: 'stone', count: 64 }] } }
const plan = planOf(bot, cells.map(([x, y, z]) => ({ x, y, z, block: 'stone' })))
const order = placingOrder(plan, new Vec3(0, 5, 0))
const ok = new Set(here.map((c) => c.join(',')))
const step = nextStep(bot, plan, order, new Map(), (c) => ok.has(c.key))
console.log(JSON.stringify({ at: [step.place.pos.x, step.place.pos.y, step.place.pos.z], here: step.here === true }))
"""


def _next(cells, solid, feet, here) -> dict:
    args = json.dumps([cells, solid, feet, here])
    done = subprocess.run([node_binary(), "-e", NEXT, args], capture_output=True, text=True, cwd=BRIDGE_DIR, check=True)
    return json.loads(done.stdout)


def test_the_next_cell_is_one_placed_from_where_the_bot_stands_then_the_nearest_of_the_lowest_layer() -> None:
    # A wall 9 long (x 0..8 at z 0), four high: its first layer is down, the bot stands at its far end.
    wall = [[x, y, 0] for x in range(9) for y in (5, 6, 7, 8)]
    first = [c for c in wall if c[1] == 5]
    far_end = [8.5, 5, 2.5]
    # Nothing placeable from here: the nearest of the lowest layer ready (y 6), not the order's first.
    assert _next(wall, first, far_end, []) == {"at": [8, 6, 0], "here": False}
    # Placeable from here, within the band: the lowest first, though a layer higher than the lowest ready.
    second_begun = first + [[x, 6, 0] for x in range(7)]
    assert _next(wall, second_begun, far_end, [[6, 7, 0], [7, 6, 0]]) == {"at": [7, 6, 0], "here": True}
    assert _next(wall, second_begun, far_end, [[6, 7, 0]]) == {"at": [6, 7, 0], "here": True}
    # Above the band (the lowest layer ready, y 6, and 2 more), a cell placeable from here waits.
    taller = wall + [[x, 9, 0] for x in range(9)]
    end_column = first + [[0, y, 0] for y in (6, 7, 8)]
    assert _next(taller, end_column, [0.5, 5, 2.5], [[0, 9, 0]]) == {"at": [1, 6, 0], "here": False}


# wayOut over cells named in `blocks` ({"x,y,z": [name, open]}); ground below y 5, air elsewhere.
NAMED = """
const registry = require('minecraft-data')('1.20.4')
const { planOf } = require('./helpers/build-order')
const { regionOf, wayOut } = require('./helpers/build-exit')
const [cells, blocks, fill, feet] = JSON.parse(process.argv[1])
const blockAt = (p) => {
  const [name, open] = blocks[`${p.x},${p.y},${p.z}`] ?? (p.y < 5 ? ['stone', false] : ['air', false])
  return { name, boundingBox: name === 'air' ? 'empty' : 'block', getProperties: () => ({ open }) }
}
const plan = planOf({ registry, blockAt }, cells.map(([x, y, z, block]) => ({ x, y, z, block })))
const cell = plan.find((c) => c.key === fill.join(','))
console.log(JSON.stringify(wayOut({ blockAt }, regionOf(plan), cell)({ x: feet[0], y: feet[1], z: feet[2] })))
"""


def test_a_trapdoor_open_or_closed_is_no_floor_to_stand_on() -> None:
    def allowed(floor: list) -> bool:
        cells = [[0, 5, 0, "stone"], [2, 7, 2, "stone"]]
        args = json.dumps([cells, {"1,5,1": floor}, [2, 7, 2], [1, 6, 1]])
        done = subprocess.run([node_binary(), "-e", NAMED, args], capture_output=True, text=True, cwd=BRIDGE_DIR, check=True)
        return json.loads(done.stdout)

    # Feet at (1, 6, 1) inside the build's box, over the cell (1, 5, 1): a stand on stone, none on
    # a trapdoor (a click on it turns it), open or closed.
    assert allowed(["stone", False]) is True
    assert allowed(["birch_trapdoor", False]) is False
    assert allowed(["birch_trapdoor", True]) is False
