'use strict'
// The egocentric frame: offsets named forward, right and up, in blocks, relative to
// the block the bot's feet are in, with the facing snapped to the nearest cardinal.
// (forward 1, up -1) is the block you would step onto.
const { Vec3 } = require('vec3')
const { yawToDeg, facingOf } = require('./angles')

// Unit vectors in world coordinates (x east, z south) for each facing, and its right hand.
const FORWARD = { south: [0, 1], west: [-1, 0], north: [0, -1], east: [1, 0] }
// Feet at y = 4.9999999 stand on the block at y = 4: float noise must not lower the feet block.
const FEET_EPSILON = 1e-3
// The block stood on holds the point this far (blocks) below the feet: a full block's top puts the
// feet at y + 1, a slab's at y + 0.5, so both read the block beneath, never the cell above it.
const UNDER_FEET = 0.2

/** The block the feet are in (world). */
function feetBlock (bot) {
  return bot.entity.position.offset(0, FEET_EPSILON, 0).floored()
}

/** The cell of the block the feet stand on (world), whether or not the bot is on the ground. */
function underFeet (bot) {
  return bot.entity.position.offset(0, -UNDER_FEET, 0).floored()
}

function frameOf (bot) {
  const facing = facingOf(yawToDeg(bot.entity.yaw))
  const [fx, fz] = FORWARD[facing]
  const [rx, rz] = [-fz, fx] // right hand: facing south (+z), right is west (-x)
  const feet = feetBlock(bot)
  return {
    facing,
    feet,
    /** World block position of an egocentric offset. */
    toWorld: (forward, right, up) => new Vec3(feet.x + forward * fx + right * rx, feet.y + up, feet.z + forward * fz + right * rz),
    /** Egocentric offset of a world block position. */
    toEgo: (p) => {
      const dx = p.x - feet.x
      const dz = p.z - feet.z
      return { forward: dx * fx + dz * fz, right: dx * rx + dz * rz, up: p.y - feet.y }
    }
  }
}

module.exports = { frameOf, feetBlock, underFeet, FORWARD }
