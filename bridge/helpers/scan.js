'use strict'
// Block scans done in Node, returned as one JSON value: a per-block scan from
// Python costs a bridge round trip per block, about 200 times slower.
const { Vec3 } = require('vec3')
const { requireInteger, requireWorldBlock } = require('./errors')

// Largest box edge half-length the scan accepts (a 33 x 33 x 33 box, 35,937 blocks).
const MAX_SCAN_RADIUS = 16

/**
 * Names of the blocks in a box centred on the block at the bot's feet.
 * World coordinates; cells are ordered y (bottom up), then z, then x, each ascending,
 * and hold indices into `palette`. Unloaded blocks read as null.
 * @param {{radius: number, half_height: number}} args horizontal and vertical half-sizes in blocks
 */
function scanBox (bot, { radius, half_height: halfHeight }) {
  requireInteger('radius', radius, 0, MAX_SCAN_RADIUS)
  requireInteger('half_height', halfHeight, 0, MAX_SCAN_RADIUS)
  const origin = bot.entity.position.floored()
  const palette = []
  const index = new Map()
  const cells = []
  const p = new Vec3(0, 0, 0)
  for (let dy = -halfHeight; dy <= halfHeight; dy++) {
    for (let dz = -radius; dz <= radius; dz++) {
      for (let dx = -radius; dx <= radius; dx++) {
        p.set(origin.x + dx, origin.y + dy, origin.z + dz)
        const name = bot.blockAt(p, false)?.name ?? null
        if (!index.has(name)) {
          index.set(name, palette.length)
          palette.push(name)
        }
        cells.push(index.get(name))
      }
    }
  }
  return { origin: { x: origin.x, y: origin.y, z: origin.z }, radius, half_height: halfHeight, palette, cells }
}

/** Name of the block at a world position (integers, blocks); null where the chunk is not loaded. */
function blockAt (bot, { x, y, z }) {
  requireWorldBlock({ x, y, z })
  return bot.blockAt(new Vec3(x, y, z), false)?.name ?? null
}

module.exports = { scanBox, blockAt, MAX_SCAN_RADIUS }
