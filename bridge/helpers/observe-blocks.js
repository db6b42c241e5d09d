'use strict'
// mc-observe-blocks: one observation of the blocks around the bot, in its egocentric frame (frame.js).
const { frameOf } = require('./frame')
const { reader, openBelow, stepUpAt, SAFE_DROP } = require('./blocks')
const { required } = require('./errors')

// The voxel grid and the hazard search reach this far above and below the feet block.
const VERTICAL_REACH = 4
// Hazards reported, nearest first.
const MAX_HAZARDS = 32
// Grid characters: '.' is air, '?' an unloaded block; others are assigned in order of appearance.
const GRID_CHARS = '#0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ%&*+=@$'

/**
 * @param {{radius: number}} args radius in blocks
 */
function observe (bot, args) {
  const { radius } = required(args, 'radius')
  const frame = frameOf(bot)
  const at = reader(bot)
  const cell = (forward, right, up) => at(frame.toWorld(forward, right, up))
  const free = freeDistances(cell, radius)
  const drop = (forward, right) => openBelow(cell, forward, right)
  const skyVisible = roofAbove(bot, frame.feet, at) === null
  const { grid, counts, hazards } = scanAround(cell, radius, drop)
  const openWays = ['forward', 'back', 'left', 'right'].filter((d) => free[d] >= Math.min(3, radius)).length
  return {
    facing: frame.facing,
    feet: { x: frame.feet.x, y: frame.feet.y, z: frame.feet.z },
    radius,
    free,
    footing_ahead: cell(1, 0, -1).name,
    clearance_ahead: { feet: cell(1, 0, 0).passable, head: cell(1, 0, 1).passable },
    step_up_ahead: stepUpAt(cell, 1),
    sky_visible: skyVisible,
    drop_ahead: drop(1, 0),
    open_terrain: skyVisible && openWays >= 3,
    hazards,
    counts,
    grid
  }
}

/** Free blocks before the first obstruction in each direction, capped at the radius. */
function freeDistances (cell, radius) {
  const body = (f, r) => cell(f, r, 0).passable && cell(f, r, 1).passable // feet and head
  const along = (ok) => {
    let k = 0
    while (k < radius && ok(k + 1)) k++
    return k
  }
  return {
    forward: along((k) => body(k, 0)),
    back: along((k) => body(-k, 0)),
    left: along((k) => body(0, -k)),
    right: along((k) => body(0, k)),
    up: along((k) => cell(0, 0, 1 + k).passable), // above the head
    down: along((k) => cell(0, 0, -k).passable) // below the feet
  }
}

/**
 * The lowest opaque block above the head (feet block + 2 up to the top of the world), as
 * {name, y} in world blocks; null when there is none, which is what "the sky is visible" means.
 */
function roofAbove (bot, feet, at) {
  const top = bot.game.minY + bot.game.height
  for (const p = feet.offset(0, 2, 0); p.y < top; p.y++) {
    const b = at(p)
    if (b.opaque) return { name: b.name, y: p.y }
  }
  return null
}

/** The voxel grid, block counts and hazards within the radius (and VERTICAL_REACH up and down). */
function scanAround (cell, radius, drop) {
  const reach = Math.min(radius, VERTICAL_REACH)
  const palette = { '.': 'air', '?': null }
  const charOf = new Map([['air', '.'], [null, '?']])
  const counts = {}
  const hazards = []
  const layers = []
  for (let up = -reach; up <= reach; up++) {
    const rows = []
    for (let forward = radius; forward >= -radius; forward--) {
      let row = ''
      for (let right = -radius; right <= radius; right++) {
        const b = cell(forward, right, up)
        counts[b.name ?? 'unloaded'] = (counts[b.name ?? 'unloaded'] ?? 0) + 1
        if (b.hazard) hazards.push({ kind: b.hazard, block: b.name, forward, right, up })
        if (!charOf.has(b.name)) {
          const c = GRID_CHARS[charOf.size - 2] ?? '~'
          charOf.set(b.name, c)
          palette[c] = c === '~' ? 'other' : b.name
        }
        row += charOf.get(b.name)
        if (up === -1 && b.passable) {
          const depth = drop(forward, right)
          if (depth > SAFE_DROP) hazards.push({ kind: 'drop', block: null, forward, right, up: -1, depth })
        }
      }
      rows.push(row)
    }
    layers.push(rows)
  }
  for (const h of hazards) h.distance = Math.hypot(h.forward, h.right, h.up)
  hazards.sort((a, b) => a.distance - b.distance)
  return {
    grid: {
      layout: `layers bottom to top (up ${-reach}..${reach}); rows forward ${radius}..${-radius}; columns right ${-radius}..${radius}`,
      palette,
      layers
    },
    counts,
    hazards: hazards.slice(0, MAX_HAZARDS)
  }
}

module.exports = { observe, roofAbove }
