'use strict'
// Placing a block from the inventory against a solid neighbour, as a player does.
const { Vec3 } = require('vec3')
const { HelperError } = require('./errors')
const { withTimeout } = require('./waiting')
const { targetBlock, checkReach, fmt } = require('./target')
const { vec } = require('./state')

// A placement is confirmed by the server within a tick or two.
const PLACE_TIMEOUT_MS = 5000
// Cells no block is set down into.
const FLUIDS = new Set(['water', 'lava'])
// The neighbour a block is placed against, by name, as an offset from the target.
const NEIGHBOURS = {
  below: [0, -1, 0], above: [0, 1, 0], north: [0, 0, -1], south: [0, 0, 1], west: [-1, 0, 0], east: [1, 0, 0]
}
const HALF_WIDTH = 0.3 // the bot is 0.6 wide and 1.8 tall

function overlapsBot (bot, pos) {
  const p = bot.entity.position
  return pos.x < p.x + HALF_WIDTH && pos.x + 1 > p.x - HALF_WIDTH &&
    pos.z < p.z + HALF_WIDTH && pos.z + 1 > p.z - HALF_WIDTH &&
    pos.y < p.y + bot.entity.height && pos.y + 1 > p.y
}

function support (bot, pos, face) {
  for (const name of face ? [face] : Object.keys(NEIGHBOURS)) {
    const off = new Vec3(...NEIGHBOURS[name])
    const ref = bot.blockAt(pos.plus(off), false)
    if (ref && ref.boundingBox === 'block') return { ref, faceVector: off.scaled(-1) }
  }
  throw new HelperError('refused', `no solid block ${face ? face + ' ' : 'next to '}${fmt(pos)} to place against`)
}

/** @param {{item: string, face?: string}} args plus a target (target.js) */
async function place (bot, args) {
  const pos = targetBlock(bot, args)
  const here = bot.blockAt(pos, false)
  if (!here) throw new HelperError('refused', `block ${fmt(pos)} is not loaded`)
  if (here.boundingBox !== 'empty') throw new HelperError('refused', `${fmt(pos)} is taken by ${here.name}`)
  if (overlapsBot(bot, pos)) throw new HelperError('refused', `${fmt(pos)} is inside the bot's own space`)
  const item = bot.inventory.items().find((i) => i.name === args.item)
  if (!item) {
    const have = [...new Set(bot.inventory.items().map((i) => i.name))].join(', ') || 'nothing'
    throw new HelperError('refused', `no ${args.item} in the inventory (it holds: ${have})`)
  }
  checkReach(bot, pos)
  const { ref, faceVector } = support(bot, pos, args.face)
  await bot.equip(item, 'hand')
  // placeBlock rejects when the server's confirmation is late; the check below is what counts.
  await withTimeout(bot.placeBlock(ref, faceVector), PLACE_TIMEOUT_MS, 'placing').catch(() => {})
  const now = bot.blockAt(pos, false)?.name ?? null
  return { item: args.item, position: vec(pos), placed: now === args.item, now, against: ref.name }
}

// Cells tried for a block set down beside the bot (a crafting table, a furnace): east, west,
// south, north of the feet, then one farther out, each on solid ground; at the feet's level
// first, then a step up (on a block beside) and a step down (uneven ground, a stair's top).
const BESIDE = [[1, 0], [-1, 0], [0, 1], [0, -1], [2, 0], [-2, 0], [0, 2], [0, -2], [1, 1], [-1, -1], [1, -1], [-1, 1]]
const LEVELS = [0, 1, -1]

/**
 * Places one `itemName` from the inventory on the ground beside the bot. @returns the block
 * placed, as the world reads it afterwards, or null when no cell around had room.
 */
async function placeBeside (bot, itemName) {
  const item = bot.inventory.items().find((i) => i.name === itemName)
  if (!item) throw new HelperError('refused', `no ${itemName} in the inventory`)
  const feet = bot.entity.position.floored()
  for (const [dx, dy, dz] of LEVELS.flatMap((dy) => BESIDE.map(([dx, dz]) => [dx, dy, dz]))) {
    const pos = feet.offset(dx, dy, dz)
    const below = bot.blockAt(pos.offset(0, -1, 0), false)
    const here = bot.blockAt(pos, false)
    if (here?.boundingBox !== 'empty' || FLUIDS.has(here.name) || below?.boundingBox !== 'block' || overlapsBot(bot, pos)) continue
    if (here.name !== 'air') await bot.dig(here, true).catch(() => {}) // a plant (grass, a flower): the game replaces it; the server wants air
    await bot.equip(item, 'hand')
    await withTimeout(bot.placeBlock(below, new Vec3(0, 1, 0)), PLACE_TIMEOUT_MS, 'placing').catch(() => {})
    const now = bot.blockAt(pos, false)
    if (now?.name === itemName) return now
  }
  return null
}

module.exports = { place, placeBeside }
