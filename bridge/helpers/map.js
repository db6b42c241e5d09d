'use strict'
// What the bot can know of the box around it, for the Python map (agent/world/spatial).
// Sight is modelled by connectivity: a flood fill from the bot's feet and head through the
// cells a body passes (air, grass, flowers, water) reaches what it could see; the walls it
// touches are known too, and what lies behind them is not.
const { Vec3 } = require('vec3')
const { frameOf } = require('./frame')
const { reader } = require('./blocks')

// One character per cell class; agent/world/spatial/survey.py reads the same letters.
const UNKNOWN = '?'
const FREE = '.'
const SOLID = '#'
const HAZARD = '!'
const WATER = '~'
const CODE = Object.fromEntries([UNKNOWN, FREE, SOLID, HAZARD, WATER].map((c) => [c, c.charCodeAt(0)]))

/**
 * The box [feet - (radius, down, radius), feet + (radius, up, radius)] in world blocks.
 * Returns {origin, size: [dx, dy, dz], cells, sky_from, feet, facing}:
 *   cells: one class letter per cell, x-major, then y, then z (index (i * dy + j) * dz + k);
 *   sky_from: per column (index i * dz + k), the lowest world y with nothing opaque above it,
 *     the block above the column's highest opaque block (never below the box's bottom).
 * @param {{radius?: number, up?: number, down?: number}} args half-sizes in blocks
 */
function survey (bot, { radius = 8, up = 6, down = 6 }) {
  const frame = frameOf(bot)
  const origin = frame.feet.offset(-radius, -down, -radius)
  const size = [2 * radius + 1, up + down + 1, 2 * radius + 1]
  const at = reader(bot)
  const cells = floodFill(at, origin, size, [[radius, down, radius], [radius, down + 1, radius]])
  return {
    origin: { x: origin.x, y: origin.y, z: origin.z },
    size,
    cells,
    sky_from: skyFrom(bot, at, origin, size),
    feet: { x: frame.feet.x, y: frame.feet.y, z: frame.feet.z },
    facing: frame.facing
  }
}

/** The class letters of the box: what the flood from `seeds` (box indices [i, j, k]) reaches or touches. */
function floodFill (at, origin, [dx, dy, dz], seeds) {
  const classes = new Uint8Array(dx * dy * dz).fill(CODE[UNKNOWN])
  const queue = new Int32Array(dx * dy * dz) // flat indices; a cell is queued at most once
  let tail = 0
  const p = new Vec3(0, 0, 0)
  const visit = (i, j, k, seed) => {
    const n = (i * dy + j) * dz + k
    if (classes[n] !== CODE[UNKNOWN]) return
    const b = at(p.set(origin.x + i, origin.y + j, origin.z + k))
    if (b.name === null) return // an unloaded chunk: nothing is known there
    classes[n] = CODE[classOf(b)]
    // The body passes free cells and water; the bot's own cells are always entered, even a slab it stands in.
    if (seed || classes[n] === CODE[FREE] || classes[n] === CODE[WATER]) queue[tail++] = n
  }
  for (const [i, j, k] of seeds) visit(i, j, k, true)
  for (let head = 0; head < tail; head++) {
    const n = queue[head]
    const k = n % dz
    const j = ((n - k) / dz) % dy
    const i = (n - k - j * dz) / (dy * dz)
    if (i > 0) visit(i - 1, j, k)
    if (i < dx - 1) visit(i + 1, j, k)
    if (j > 0) visit(i, j - 1, k)
    if (j < dy - 1) visit(i, j + 1, k)
    if (k > 0) visit(i, j, k - 1)
    if (k < dz - 1) visit(i, j, k + 1)
  }
  return Buffer.from(classes).toString('latin1')
}

function classOf (block) {
  if (block.hazard === 'water') return WATER
  if (block.hazard) return HAZARD
  return block.passable ? FREE : SOLID
}

/** Per column of the box, the lowest y open to the sky (see `survey`), scanned down from the top of the world. */
function skyFrom (bot, at, origin, [dx, , dz]) {
  const top = bot.game.minY + bot.game.height
  const out = new Array(dx * dz).fill(origin.y)
  const p = new Vec3(0, 0, 0)
  for (let i = 0; i < dx; i++) {
    for (let k = 0; k < dz; k++) {
      p.set(origin.x + i, top - 1, origin.z + k)
      const column = bot.world.getColumnAt(p)
      if (!column) continue // unloaded: its cells are unknown, their sky does not matter
      while (p.y >= origin.y) {
        const skipTo = emptySectionBottom(column, p.y)
        if (skipTo !== null) p.y = skipTo - 1
        else if (at(p).opaque) break
        else p.y--
      }
      out[i * dz + k] = Math.max(p.y + 1, origin.y)
    }
  }
  return out
}

/**
 * The bottom y of the 16-block chunk section holding `y` when that section is all air, else null.
 * The open sky is mostly empty sections: skipping them took the sky scan of a radius-16 box from
 * ~16 ms to ~1 ms. Chunk formats without `isEmpty` are scanned block by block.
 */
function emptySectionBottom (column, y) {
  const minY = column.minY ?? 0
  const section = column.sections?.[(y - minY) >> 4]
  if (section === null || section?.isEmpty?.()) return minY + (((y - minY) >> 4) << 4)
  return null
}

module.exports = { survey }
