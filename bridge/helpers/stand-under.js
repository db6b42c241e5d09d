'use strict'
// Reaching a block too high to dig from the ground (the top log of a 7-high trunk, once the
// logs below it are cut): the bot stands in the open column under it, builds a pillar of the
// blocks it needs under its feet (pillar-up.js), digs the block, and takes the pillar down
// again, one block under the feet at a time, so nothing it built stays in the world. Positions
// are world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { climbOne, pickItem } = require('./pillar-up')
const { clear } = require('./digging')
const { frameOf, feetBlock } = require('./frame')
const { settle } = require('./steering')
const { waitFor } = require('./waiting')
const { Stop } = require('./stepwise')

// A pillar's stops (pillar-up.js) in mc-collect's words (mc-collect/tool.py).
const AS_COLLECT = { blocked_above: 'blocked', place_failed: 'blocked', no_blocks: 'unreachable', fell: 'fell' }

// The highest a block may be above the ground for a pillar to reach it; blocks in reach from
// the ground (within 4.5 of the eyes) need none. Heights are counted from the feet block.
const MAX_PILLAR = 3
const IN_REACH = 5 // a block 5 above the feet block is 3.9 from the eyes, 6 above is 4.9
// A fall of one block takes ~0.3 s.
const FALL_MS = 1000

/**
 * The block of `kind` among `cells` that stands over an open column the bot can stand at the
 * bottom of, too high to reach from there but within a pillar of it, with the pillar's height.
 * @returns {{cell, stand, height}} or null
 */
function overhead (bot, cells) {
  for (const cell of cells) {
    let y = cell.y - 1
    while (y > cell.y - IN_REACH - MAX_PILLAR - 2 && bot.blockAt(cell.offset(0, y - cell.y, 0), false)?.boundingBox === 'empty') y--
    const ground = bot.blockAt(cell.offset(0, y - cell.y, 0), false)
    if (ground?.boundingBox !== 'block') continue
    const height = cell.y - (y + 1) - IN_REACH
    if (height >= 1 && height <= MAX_PILLAR) return { cell, stand: cell.offset(0, y + 1 - cell.y, 0), height }
  }
  return null
}

/** Walks to `under.stand` and builds a pillar of `under.height` blocks there; Stop when it cannot. */
async function climbUnder (bot, under, walk, deadline) {
  const item = pickItem(bot)
  if (!item) throw new Stop('unreachable', `the ${bot.blockAt(under.cell, false)?.name} at y ${under.cell.y} is out of reach, and the bot carries no block to stand on`)
  await walk(bot, new goals.GoalBlock(under.stand.x, under.stand.y, under.stand.z), deadline, 'walking under the block')
    .catch((err) => { throw err.name === 'NoPath' ? new Stop('unreachable', `no walk reaches the cell under the ${bot.blockAt(under.cell, false)?.name}`) : err })
  const tally = { placed: 0 }
  try {
    for (let i = 0; i < under.height; i++) await climbOne(bot, item, tally)
  } catch (err) {
    await takeDown(bot, under)
    throw err instanceof Stop && AS_COLLECT[err.reason] ? new Stop(AS_COLLECT[err.reason], err.message) : err
  }
}

/**
 * Digs the pillar's blocks, the top first, in the column they were built in (not whatever is
 * under the feet: on a cliff's edge the bot may stand on the ledge beside), landing on each in
 * turn when it stands on the pillar; Stop when one is still there.
 */
async function takeDown (bot, under) {
  for (let up = under.height - 1; up >= 0; up--) {
    const cell = under.stand.offset(0, up, 0)
    if (bot.blockAt(cell, false)?.boundingBox !== 'block') continue // not placed, or gone already
    const feet = feetBlock(bot)
    await clear(bot, frameOf(bot), cell)
    if (!feet.equals(cell.offset(0, 1, 0))) continue // dug from beside: no fall to wait for
    await waitFor(() => feetBlock(bot).y < feet.y, FALL_MS) // the physics tick after the dig starts the fall
    await settle(bot)
  }
}

module.exports = { overhead, climbUnder, takeDown }
