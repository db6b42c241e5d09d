'use strict'
// The blocks of one kind joined to a first one: a tree's logs, a platform's stones. Joined through
// any of the 26 cells around each, at most `cap` of them and none more than `spread` blocks from the
// first along x or z (so a forest's touching crowns are not one tree, a stone floor not one platform).
// World blocks: x east, y up, z south.
const { Vec3 } = require('vec3')

const NEIGHBOURS = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dz) => new Vec3(dx, dy, dz))))
  .filter((d) => d.x || d.y || d.z)
// A structure to stand on top of: its blocks this near the first one, at most this many.
const STRUCTURE_SPREAD = 6
const STRUCTURE_CELLS = 256

/** The cells of blocks named `name` joined to the one at `first` (a world cell), bounded. */
function joined (bot, name, first, { spread, cap }) {
  const seen = new Set([first.toString()])
  const cells = [first]
  for (let i = 0; i < cells.length && cells.length < cap; i++) {
    for (const d of NEIGHBOURS) {
      const p = cells[i].plus(d)
      if (seen.has(p.toString()) || Math.max(Math.abs(p.x - first.x), Math.abs(p.z - first.z)) > spread) continue
      seen.add(p.toString())
      if (bot.blockAt(p, false)?.name === name) cells.push(p)
    }
  }
  return cells.slice(0, cap)
}

/** The y of the highest block of the structure joined to `first` that `standable` allows (room
 * above it): its top, where "climb onto the stone platform" ends; null when none is. */
function topOf (bot, name, first, standable) {
  const ys = joined(bot, name, first, { spread: STRUCTURE_SPREAD, cap: STRUCTURE_CELLS })
    .filter((c) => standable(bot, c)).map((c) => c.y)
  return ys.length ? Math.max(...ys) : null
}

module.exports = { joined, topOf }
