'use strict'
// A short fingerprint of what a step can change in the world: the block the bot's feet are in,
// what it carries, and the blocks of a box around it. Equal before and after a step: the step
// changed nothing here (a walk that went nowhere, a dig that broke nothing, a look). The planner
// compares two (agent/planner/loops.py); it never reads inside one. Turning and health are left
// out: a bot that only turned, or only took damage, has not changed its world.
// World blocks: x east, y up, z south.
const crypto = require('crypto')
const { Vec3 } = require('vec3')
const { requireInteger } = require('./errors')

// Blocks each way around the feet that the fingerprint covers: reach (4.5 blocks) and a margin.
const DEFAULT_RADIUS = 5
const MAX_RADIUS = 8

/**
 * @param {{radius?: number}} args the box's half-size in blocks
 * @returns {{cell: {x: number, y: number, z: number}, digest: string}} digest: 16 hex digits
 */
function digest (bot, { radius = DEFAULT_RADIUS } = {}) {
  requireInteger('radius', radius, 0, MAX_RADIUS)
  const feet = bot.entity.position.floored()
  const hash = crypto.createHash('sha1')
  hash.update(`${bot.game.dimension} ${feet.x} ${feet.y} ${feet.z}|`)
  for (const item of bot.inventory.items()) hash.update(`${item.slot}:${item.name}:${item.count},`)
  const ids = new Int32Array((2 * radius + 1) ** 3)
  const p = new Vec3(0, 0, 0)
  let i = 0
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dz = -radius; dz <= radius; dz++) {
      for (let dx = -radius; dx <= radius; dx++) {
        p.set(feet.x + dx, feet.y + dy, feet.z + dz)
        ids[i++] = bot.world.getBlockStateId(p) ?? -1
      }
    }
  }
  hash.update(Buffer.from(ids.buffer))
  return { cell: { x: feet.x, y: feet.y, z: feet.z }, digest: hash.digest('hex').slice(0, 16) }
}

module.exports = { digest }
