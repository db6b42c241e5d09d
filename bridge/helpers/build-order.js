'use strict'
// What a blueprint asks of each cell, and the order it is worked in, read from the world on
// every pass (nothing is kept between calls: a second call goes on from what the world holds).
// Cells already holding another block are cleared first, the highest first; then cells are
// placed where something solid is there to place against, bottom up and stand by stand (what
// the bot can place from where it stands, else the nearest of the lowest layer); blocks that
// hang on others (a torch, a flower) after the full blocks, and doors last. Positions are world blocks (x east, y up, z south).
const { Vec3 } = require('vec3')
const { parseSpec, stateAt, sameBlock } = require('./blockstate')

const AIR = new Set(['air', 'cave_air', 'void_air'])
const FLUIDS = new Set(['water', 'lava'])
// A door's upper half and a bed's head come with the other half: never placed themselves.
const COMES_WITH_ANOTHER = [['half', 'upper'], ['part', 'head']]
const NEIGHBOURS = [[0, -1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1], [0, 1, 0]]
// The order's groups: full blocks (what others rest on), blocks hung on them, doors.
const FULL = 0
const HUNG = 1
const DOOR = 2
// The layers worked together from one stand: the lowest ready and those this far above it.
const BAND = 2
// A cell farther than this from the feet is not placed without a walk (a click reaches 4.5 from the eyes).
const REACH = 5

const keyOf = (p) => `${p.x},${p.y},${p.z}`

/**
 * The blueprint's cells {x, y, z, block} as {pos, key, spec, want: {name, state}, air, group,
 * item, fills}: `fills` the keys of the cells placing it fills (its own, and an upper half's above).
 */
function planOf (bot, cells) {
  const plan = cells.map((c) => {
    const want = parseSpec(c.block)
    const kind = bot.registry.blocksByName[want.name]
    const group = want.name.endsWith('_door') ? DOOR : kind?.boundingBox === 'block' ? FULL : HUNG
    return { pos: new Vec3(c.x, c.y, c.z), key: keyOf(c), spec: c.block, want, air: AIR.has(want.name), group, item: itemFor(bot, want.name), fills: [keyOf(c)] }
  })
  const byKey = new Map(plan.map((c) => [c.key, c]))
  for (const upper of plan.filter((c) => c.want.state.half === 'upper')) byKey.get(keyOf(upper.pos.offset(0, -1, 0)))?.fills.push(upper.key)
  return plan
}

/** The item that places block `name`: the item of that name, else the one the block drops (a wall torch: torch). */
function itemFor (bot, name) {
  if (bot.registry.itemsByName[name]) return name
  const drop = bot.registry.blocksByName[name]?.drops?.[0]
  return drop === undefined ? name : bot.registry.items[typeof drop === 'number' ? drop : drop.drop]?.name ?? name
}

function comesWithAnother (cell) {
  return COMES_WITH_ANOTHER.some(([k, v]) => cell.want.state[k] === v)
}

/** What the cell holds against what it must: right, empty (air, a fluid), taken (anything else), unloaded. */
function statusOf (bot, cell) {
  const now = stateAt(bot, cell.pos)
  if (now === null) return 'unloaded'
  if (cell.air) return AIR.has(now.name) ? 'right' : 'taken'
  if (sameBlock(now, cell.want)) return 'right'
  return AIR.has(now.name) || FLUIDS.has(now.name) ? 'empty' : 'taken'
}

/** Whether a solid block beside `pos` is there to place against. */
function supported (bot, pos) {
  return NEIGHBOURS.some(([dx, dy, dz]) => bot.blockAt(pos.offset(dx, dy, dz), false)?.boundingBox === 'block')
}

/**
 * The plan's cells in the order they are placed: by group, bottom up, and within a layer the
 * farthest from `exit` (where the bot leaves: the door, or where it started) first.
 */
function placingOrder (plan, exit) {
  const far = (c) => Math.hypot(c.pos.x - exit.x, c.pos.z - exit.z)
  return plan.filter((c) => !c.air && !comesWithAnother(c))
    .sort((a, b) => a.group - b.group || a.pos.y - b.pos.y || far(b) - far(a))
}

/** Where the bot leaves the build: a door's cell, else `start`. */
function exitOf (plan, start) {
  return plan.find((c) => c.group === DOOR)?.pos ?? start
}

/**
 * The next thing to do among `cells` (placingOrder's, or all for clearing), skipping those in
 * `failed` (key -> why): {clear: cell}, {place: cell}, or null. A cell to place is skipped while
 * its item is not carried or nothing solid is beside it (whyNot says so). Stand by stand, not
 * cell by cell: of the cells ready in the first group's lowest BAND layers, one the bot can
 * place from where it stands (`here(cell)`) comes first, the lowest first; else the nearest of
 * the lowest layer, where the next walk goes (a bot on scaffolding moves along, not down and up).
 */
function nextStep (bot, plan, order, failed, here = () => false) {
  const taken = plan.filter((c) => !failed.has(c.key) && statusOf(bot, c) === 'taken').sort((a, b) => b.pos.y - a.pos.y)
  if (taken.length) return { clear: taken[0] }
  const ready = order.filter((c) => !failed.has(c.key) && statusOf(bot, c) === 'empty' && whyNot(bot, c) === null)
  if (ready.length === 0) return null
  const [first] = ready
  const band = ready.filter((c) => c.group === first.group && c.pos.y <= first.pos.y + BAND)
  const feet = bot.entity.position
  const away = (c) => c.pos.offset(0.5, 0.5, 0.5).distanceTo(feet)
  const inReach = band.filter((c) => away(c) <= REACH).sort((a, b) => a.pos.y - b.pos.y || away(a) - away(b))
  const now = inReach.find(here)
  if (now) return { place: now, here: true }
  const layer = band.filter((c) => c.pos.y === first.pos.y)
  return { place: layer.reduce((best, c) => away(c) < away(best) ? c : best) }
}

/** Why an empty cell cannot be placed now without a walk: its item not carried, nothing to place against; or null. */
function whyNot (bot, cell) {
  if (comesWithAnother(cell)) return 'comes with the block below it'
  if (!bot.inventory.items().some((i) => i.name === cell.item)) return `no ${cell.item} in the inventory`
  if (!supported(bot, cell.pos)) return 'nothing solid beside it to place against'
  return null
}

module.exports = { planOf, statusOf, placingOrder, exitOf, nextStep, whyNot, comesWithAnother, keyOf, AIR, FULL, HUNG, DOOR }
