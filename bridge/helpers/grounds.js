'use strict'
// What the world offers a planner's arguments now (agent/goals/grounds.py): the way the bot
// looks (where a structure asked goes), the items carried,
// the other players online, the kinds of block in a box around the feet, nearest first (with the
// nearest one's cell), and the
// ground's level around the bot (where "out of this hole" is); when asked, the trees near and the
// nearest chest's contents (read only then: the chest costs a round trip to the server).
// World blocks: x east, y up, z south; distances are blocks from the feet to a block's centre.
const { Vec3 } = require('vec3')
const { playerEntity } = require('./state')
const { facingOf, yawToDeg } = require('./angles')
const { counts } = require('./inventory')
const { chestContents, listed } = require('./chest')
const { joined, topOf } = require('./joined')
const { roomAbove } = require('./room')

// Cells that are no kind of thing to go to or dig.
const NOTHING = new Set(['air', 'cave_air', 'void_air'])
// The ground around is read on the columns this far from the feet (blocks, the square's ring):
// beyond a pit or a well a few blocks wide and its rim.
const RING = 5
// A tree: the logs of one kind joined to its nearest log through any of the 26 cells around each,
// at most TREE_LOGS of them and none more than TREE_SPREAD blocks from the first along x or z (so
// a forest's touching crowns of logs are not read as one tree).
const TREE_LOGS = 64
const TREE_SPREAD = 6

/**
 * @param {{radius?: number, half_height?: number, names?: string[], trees?: boolean, chest?: boolean, tops?: string[]}} args
 *   the box's half-sizes, blocks; words that may be players' names (a goal's), found when in view;
 *   `trees`, `chest`: add the trees of the logs seen, the nearest chest seen and what it holds;
 *   `tops`: block kinds whose top to read (the highest block with room above of the structure
 *   joined to the nearest one seen)
 */
async function grounds (bot, { radius = 16, half_height: halfHeight = 8, names = [], trees = false, chest = false, tops: topsOf = [] }) {
  const feet = bot.entity.position
  const origin = feet.floored()
  const nearest = new Map()
  const tops = new Map() // column 'dx,dz' within RING -> the feet level on its highest full block
  const p = new Vec3(0, 0, 0)
  for (let dy = -halfHeight; dy <= halfHeight; dy++) {
    for (let dz = -radius; dz <= radius; dz++) {
      for (let dx = -radius; dx <= radius; dx++) {
        const block = bot.blockAt(p.set(origin.x + dx, origin.y + dy, origin.z + dz), false)
        const name = block?.name
        if (!name || NOTHING.has(name)) continue
        if (Math.max(Math.abs(dx), Math.abs(dz)) <= RING && block.boundingBox === 'block') tops.set(`${dx},${dz}`, p.y + 1)
        const d = feet.distanceTo(p.offset(0.5, 0.5, 0.5))
        if (!(nearest.get(name)?.distance <= d)) nearest.set(name, { distance: d, at: { x: p.x, y: p.y, z: p.z } })
      }
    }
  }
  const read = {
    feet: { x: feet.x, y: feet.y, z: feet.z },
    facing: facingOf(yawToDeg(bot.entity.yaw)),
    carried: counts(bot),
    players: otherPlayers(bot, names),
    blocks: [...nearest.entries()].sort((a, b) => a[1].distance - b[1].distance).map(([name, seen]) => ({ name, ...seen })),
    ...groundAround(origin, tops)
  }
  if (trees) read.trees = treesOf(bot, read.blocks)
  if (topsOf.length) read.tops = structureTops(bot, read.blocks.filter(({ name }) => topsOf.includes(name)))
  if (chest) read.chest = await chestSeen(bot, nearest.get('chest')?.at)
  return read
}

/** The tree of the nearest log of each log kind among `blocks` (nearest first); stripped logs are
 * a build's, not a tree's. @returns {{name, logs, at}[]} `at` the nearest log's cell */
function treesOf (bot, blocks) {
  return blocks.filter(({ name }) => name.endsWith('_log') && !name.startsWith('stripped_'))
    .map(({ name, at }) => ({ name, logs: treeLogs(bot, name, new Vec3(at.x, at.y, at.z)), at }))
}

/** How many `name` logs are joined to the one at `first` (world cell), bounded as a tree is. */
function treeLogs (bot, name, first) {
  return joined(bot, name, first, { spread: TREE_SPREAD, cap: TREE_LOGS }).length
}

/** The top of the structure of each of `blocks` (nearest seen): {name, y} of its highest block
 * with room above; none where no block of it has room above. */
function structureTops (bot, blocks) {
  return blocks.map(({ name, at }) => ({ name, y: topOf(bot, name, new Vec3(at.x, at.y, at.z), roomAbove) }))
    .filter(({ y }) => y !== null)
}

/**
 * The chest at `at` (the nearest seen) and what it holds, summed by item, as the server keeps it
 * (chest.js chestContents); null when none was seen, or the server does not say what chests
 * hold (only mcagent's local server does): unknown contents are not an empty chest.
 */
async function chestSeen (bot, at) {
  if (!at) return null
  try {
    return { at, items: listed(await chestContents(bot, new Vec3(at.x, at.y, at.z))) }
  } catch (err) {
    if (err.code === 'unreadable') return null
    throw err
  }
}

/**
 * The ground's level around (the median feet level on the columns RING off) and, when the feet
 * stand off that level, the hole they are in: the columns reached from the feet's through
 * columns off the level (its floor, steps, a rim or wall around it), as world [x, z] corners.
 */
function groundAround (origin, tops) {
  const ring = [...tops.entries()].filter(([key]) => Math.max(...key.split(',').map((v) => Math.abs(v))) === RING)
  const groundY = median(ring.map(([, top]) => top))
  if (groundY === null || tops.get('0,0') === groundY) return { ground_y: groundY, hole: null }
  const seen = new Set(['0,0'])
  const queue = [[0, 0]]
  for (let i = 0; i < queue.length; i++) {
    const [x, z] = queue[i]
    for (const [nx, nz] of [[x + 1, z], [x - 1, z], [x, z + 1], [x, z - 1]]) {
      const key = `${nx},${nz}`
      if (Math.max(Math.abs(nx), Math.abs(nz)) >= RING || seen.has(key) || tops.get(key) === groundY) continue
      seen.add(key)
      queue.push([nx, nz])
    }
  }
  const xs = queue.map(([x]) => origin.x + x)
  const zs = queue.map(([, z]) => origin.z + z)
  return { ground_y: groundY, hole: { from: [Math.min(...xs), Math.min(...zs)], to: [Math.max(...xs), Math.max(...zs)] } }
}

function median (values) {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Other players: those the tab list names, and those of `names` in view (flying-squid may send a
 * player's entity with no tab list entry: its offline UUID, from the name, finds it). */
function otherPlayers (bot, names) {
  const seen = names.filter((name) => playerEntity(bot, name))
  return [...new Set([...Object.keys(bot.players), ...seen])].filter((name) => name !== bot.username)
}

module.exports = { grounds }
