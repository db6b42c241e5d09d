'use strict'
// Evaluates a goal check (agent/checks/model.py, validated there) against the world in one call.
// Every node answers {holds, says} (a predicate: what the world says, in words) or
// {holds, parts} (all, any, not); Python words the verdict from these (agent/checks/evaluate.py).
// World blocks: x east, y up, z south; the feet block is the floor of the feet position.
const { Vec3 } = require('vec3')
const { HelperError } = require('./errors')
const { reader } = require('./blocks')
const { roofAbove } = require('./observe-blocks')
const { feetBlock, underFeet } = require('./frame')
const { carried } = require('./inventory')
const { contactsWith } = require('./contact')
const { kindOf } = require('./approach')
const { chestContents } = require('./chest')
const { playerEntity } = require('./state')
const { parseSpec, stateAt, sameBlock, specOf } = require('./blockstate')
const { heldCells } = require('./read-cells')
const { shelterAround } = require('./shelter')
const { teamOf } = require('./connection')

const finding = (holds, says) => ({ holds, says })
const between = (v, a, b) => v >= Math.min(a, b) && v <= Math.max(a, b)
// Blocks of a kind near_block measures: findBlocks returns them roughly nearest first, by chunk
// section, so a few more than one are read and the nearest of them taken.
const NEAR_CANDIDATES = 64
// Wrong cells of a blueprint named in its verdict; the share counts them all.
const WRONG_SAID = 3
// container_has without a place looks in the chests this close to the feet (blocks).
const CHEST_SEARCH = 16
const CHESTS_READ = 16

// Each predicate: (world, value) -> {holds, says}. `world` is read once per call.
const PREDICATES = {
  sky_visible: ({ bot, block, at }) => {
    const roof = roofAbove(bot, block, at)
    if (!roof) return finding(true, 'nothing opaque above the head')
    const gap = roof.y - (block.y + 1)
    return finding(false, `${roof.name} at y=${roof.y}, ${gap} block${gap === 1 ? '' : 's'} above the head`)
  },
  feet_y_at_least: ({ feet }, min) => finding(feet.y >= min, `the feet are at y=${feet.y.toFixed(2)}`),
  outside: ({ block }, { from, to }) => {
    const inside = ['x', 'y', 'z'].every((axis, i) => between(block[axis], from[i], to[i]))
    return finding(!inside, `the feet block (${block.x}, ${block.y}, ${block.z}) is ${inside ? 'inside' : 'outside'}`)
  },
  within: ({ feet }, { x, y, z, distance }) => {
    const d = feet.distanceTo(new Vec3(x, y, z))
    return finding(d <= distance, `${d.toFixed(1)} blocks away`)
  },
  standing_on_ground: ({ bot }) => {
    const on = bot.entity.onGround
    return finding(on, on ? 'the bot is on the ground' : 'the bot is not on the ground')
  },
  // On the ground, not in a jump over the block: the verdict names the block under the feet either way.
  standing_on: ({ bot, at }, { block }) => {
    const under = at(underFeet(bot)).name ?? 'an unloaded cell'
    const on = bot.entity.onGround
    return finding(on && under === block, on ? `${under} under the feet` : `not on the ground, ${under} under the feet`)
  },
  has_item: ({ bot }, { name, count }) => {
    const n = carried(bot, (i) => i.name === name)
    return finding(n >= count, `${n} in the inventory`)
  },
  // Any bot of the team (connection.js teamOf) holds that many; the verdict names who holds most.
  team_has: ({ bot }, { name, count }) => {
    const held = teamOf(bot).map((b) => ({ who: b.username, n: carried(b, (i) => i.name === name) }))
    const most = held.reduce((a, b) => (b.n > a.n ? b : a))
    return finding(most.n >= count, `${most.n} with ${most.who}, the most of ${held.length} bot${held.length === 1 ? '' : 's'}`)
  },
  // Says how near only when it holds: a goal to find a block must not be told where it is.
  near_block: ({ bot, feet }, { block, distance }) => {
    const d = nearestDistance(bot, feet, block, distance)
    if (d === null) return finding(false, `no ${block} within ${distance} blocks of the feet`)
    return finding(true, `${block} ${d.toFixed(1)} blocks from the feet`)
  },
  near_player: ({ bot, feet }, { name, distance }) => {
    const other = playerEntity(bot, name)
    if (!other) return finding(false, `${name} is not in view`)
    const d = feet.distanceTo(other.position)
    return finding(d <= distance, `${name} is ${d.toFixed(1)} blocks from the feet`)
  },
  block_at: ({ bot }, { at: cell, block }) => {
    const now = stateAt(bot, new Vec3(...cell))
    return finding(sameBlock(now, parseSpec(block)), now === null ? 'that chunk is not loaded' : `${specOf(now)} there`)
  },
  // How much of a build stands: the share of cells that hold their block, in the state the
  // blueprint asks (blockstate.js), over all cells; and the first few that do not.
  blueprint: ({ bot }, plan) => {
    const cells = heldCells(bot, plan)
    const wrong = cells.filter((c) => !c.right)
      .map(({ at, held, wanted }) => `(${at.join(', ')}) holds ${held ?? 'nothing loaded'}, not ${wanted}`)
    const right = cells.length - wrong.length
    const share = `${right} of ${cells.length} cells right (${Math.round(100 * right / cells.length)} %)`
    return finding(wrong.length === 0, wrong.length ? `${share}; ${wrong.slice(0, WRONG_SAID).join('; ')}` : share)
  },
  // An enclosed air space around the feet block, or around the cell asked (shelter.js).
  shelter: ({ bot, block, at }, value) => shelterAround(bot, at, value === true ? block : new Vec3(...value.at)),
  // What chests hold, read through the server before the predicates run (readChests). Without
  // `at`, the fullest chest near the feet decides, and the verdict does not say where it is.
  container_has: ({ at, chests }, { at: cell, name, count }) => {
    if (cell && at(new Vec3(...cell)).name !== 'chest') return finding(false, `no chest at (${cell.join(', ')})`)
    const held = (cell ? [chests.get(cell.join())] : [...chests.values()])
      .map((items) => items.filter((i) => i.name === name).reduce((n, i) => n + i.count, 0))
    if (held.length === 0) return finding(false, `no chest within ${CHEST_SEARCH} blocks of the feet`)
    const most = Math.max(...held)
    return finding(most >= count, `${most} ${name} in ${cell ? 'the chest' : `the fullest of ${held.length} chests near`}`)
  },
  // The way, not the end: whether the body has been in any of these blocks since the run began.
  avoided: ({ bot }, names) => {
    const met = contactsWith(bot, names)
    if (met.length === 0) return finding(true, `not in ${names.join(' or ')} since the run began`)
    return finding(false, met.map(({ name, x, y, z }) => `was in ${name} at (${x}, ${y}, ${z})`).join(', '))
  }
}

/** Blocks from `feet` to the centre of the nearest `name` block within `distance`; null if none. */
function nearestDistance (bot, feet, name, distance) {
  const kind = kindOf(bot, name)
  const cells = bot.findBlocks({ matching: kind.id, point: feet, maxDistance: Math.ceil(distance) + 1, count: NEAR_CANDIDATES })
  const distances = cells.map((c) => feet.distanceTo(c.offset(0.5, 0.5, 0.5))).filter((d) => d <= distance)
  return distances.length ? Math.min(...distances) : null
}

/** The chests container_has nodes name, or those near the feet: Map 'x,y,z' -> [{name, count}]. */
async function readChests (bot, feet, check) {
  const cells = []
  const visit = (node) => {
    const [key, value] = Object.entries(node)[0] ?? []
    if (key === 'all' || key === 'any') value.forEach(visit)
    else if (key === 'not') visit(value)
    else if (key === 'container_has' && value.at) cells.push(new Vec3(...value.at))
    else if (key === 'container_has') {
      cells.push(...bot.findBlocks({ matching: kindOf(bot, 'chest').id, point: feet, maxDistance: CHEST_SEARCH, count: CHESTS_READ }))
    }
  }
  visit(check)
  const chests = new Map()
  for (const c of cells) chests.set([c.x, c.y, c.z].join(), await chestContents(bot, c))
  return chests
}

function evaluate (world, check) {
  const [key, value] = Object.entries(check)[0] ?? []
  if (key === 'all' || key === 'any') {
    const parts = value.map((part) => evaluate(world, part)) // every part, so all failures are named
    return { holds: key === 'all' ? parts.every((p) => p.holds) : parts.some((p) => p.holds), parts }
  }
  if (key === 'not') {
    const part = evaluate(world, value)
    return { holds: !part.holds, parts: [part] }
  }
  const predicate = PREDICATES[key]
  if (!predicate) {
    throw new HelperError('bad_args', `unknown predicate '${key}' (known: all, any, not, ${Object.keys(PREDICATES).join(', ')})`)
  }
  return predicate(world, value)
}

/** @param {{check: object}} args a check in its YAML/JSON form */
async function checkGoal (bot, { check }) {
  const feet = bot.entity.position
  // Just after a spawn, a respawn or a rejoin the chunks are still on their way, and an
  // unloaded world reads as empty: open sky everywhere. Unreadable is never a success.
  if (!bot.world.getColumnAt(feet)) throw new HelperError('not_loaded', 'the chunk the bot stands in is not loaded yet')
  const chests = await readChests(bot, feet, check)
  return evaluate({ bot, feet, block: feetBlock(bot), at: reader(bot), chests }, check)
}

module.exports = { checkGoal }
