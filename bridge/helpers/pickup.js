'use strict'
// Picking up items that lie on the ground, as players do: walk into the item's own cell and wait
// for the server to hand it over (flying-squid does within 1.75 blocks of the feet, half a
// second after a drop appears, 2 s after a throw). An item may fly or slide after it appears, so
// each try walks to where it lies now. Used by collect (a dug block's drop), give (a throw left
// lying) and build-scaffold (the blocks of a pillar taken down). Positions are world blocks.
const { goals } = require('mineflayer-pathfinder')
const { waitFor } = require('./waiting')
const { left } = require('./approach')

// How far a dug block's drop flies sideways (blocks); below the block it may fall any distance.
const DROP_FLIES = 3
// After a walk onto an item, the wait for the server to hand it over.
const PICKUP_MS = 2000

/**
 * Walks onto the item `find()` returns until `done()` holds: `tries` tries, each waiting up to
 * `appearsMs` for an item to be found (a drop appears a tick or more after the dig), walking into
 * its cell with `walkTo(goal, attempt)` and waiting for it to be taken. A walk that finds no way
 * is the next try's concern; the call's deadline passing ends it (the walk's 'timeout').
 * @param {{find: () => object|null, done: () => boolean, walkTo: (goal: object, attempt: number) => Promise,
 *   tries: number, deadline: number, appearsMs?: number}} how
 */
async function pickUpLying (bot, { find, done, walkTo, tries, deadline, appearsMs = 0 }) {
  for (let attempt = 0; attempt < tries; attempt++) {
    const item = await waitFor(() => done() || find(), Math.min(appearsMs, left(deadline)))
    if (!item || done()) return
    const { x, y, z } = item.position.floored()
    await walkTo(new goals.GoalBlock(x, y, z), attempt)
      .catch((err) => { if (err.code === 'timeout') throw err })
    await waitFor(() => done() || !bot.entities[item.id], Math.min(PICKUP_MS, left(deadline)))
  }
}

/**
 * The item entity nearest a dug block `cell`: within the distance a drop flies sideways, and
 * anywhere below it, because a drop falls (a log dug from a pillar lands on the ground 6 blocks under it).
 */
function nearestDrop (bot, cell) {
  const centre = cell.offset(0.5, 0.5, 0.5)
  const near = (e) => Math.hypot(e.position.x - centre.x, e.position.z - centre.z) < DROP_FLIES && e.position.y < centre.y + DROP_FLIES
  const drops = Object.values(bot.entities).filter((e) => e.name === 'item' && near(e))
  return drops.sort((a, b) => a.position.distanceTo(centre) - b.position.distanceTo(centre))[0] ?? null
}

module.exports = { pickUpLying, nearestDrop }
