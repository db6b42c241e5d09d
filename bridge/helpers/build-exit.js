'use strict'
// Never walled in: a block is placed only from where a walk still leads out of the build with
// that block in place (no towering, drops of up to SAFE_DROP, digging the scaffolding: down
// the pillar it stands on, through one in the way), or from outside its footprint, or from
// above its top (on a roof or scaffolding: the scaffolding is taken down to the ground at the
// end), or from a tower of scaffolding whose foot a walk leaves (a roof's middle, out of reach
// from outside). So the cell that closes a room is placed from outside it, and the bot never
// stands in a room no walk leaves; a door standing open (or placed open) is a way out, as for a
// player, and a door or trapdoor is never stood on.
// Positions are world blocks (x east, y up, z south).
const { Vec3 } = require('vec3')
const { keyOf, DOOR } = require('./build-order')
const { SAFE_DROP } = require('./blocks')

// The box walked in: the build's own and this margin around it (and up: standing on a roof).
const MARGIN = 2
const SIDES = [[1, 0], [-1, 0], [0, 1], [0, -1]]
// Straight down: only by digging the scaffold block under the feet.
const DOWN = [[0, 0, -1]]
// A step from a cell to one beside it rises 1, stays level or drops up to SAFE_DROP.
const RISES = [1, 0, ...Array.from({ length: SAFE_DROP }, (_, i) => -1 - i)]
// Every move a walk makes from a feet cell: [dx, dz, rise].
const MOVES = [...SIDES.flatMap(([dx, dz]) => RISES.map((rise) => [dx, dz, rise])), ...DOWN]

/** The plan's box (`box`) and the region walked in: the box MARGIN wider on every side, a cell deeper (the ground). */
function regionOf (plan) {
  const lo = { x: Infinity, y: Infinity, z: Infinity }
  const hi = { x: -Infinity, y: -Infinity, z: -Infinity }
  for (const { pos } of plan) {
    for (const a of ['x', 'y', 'z']) {
      lo[a] = Math.min(lo[a], pos[a])
      hi[a] = Math.max(hi[a], pos[a])
    }
  }
  return { box: { lo, hi }, lo: { x: lo.x - MARGIN, y: lo.y - 1, z: lo.z - MARGIN }, hi: { x: hi.x + MARGIN, y: hi.y + MARGIN, z: hi.z + MARGIN } }
}

// Blocks a click turns (opens, closes) rather than places against: never stood on (a walk's
// scaffolding click on a trapdoor stood on turned it); one standing open is passed through.
const TURNED = /(_door|_trapdoor|_fence_gate)$/

/** Whether `block` is a door or trapdoor standing open: walked (or dropped) through, not round. */
const standsOpen = (block) => TURNED.test(block?.name ?? '') && block.getProperties().open === true

/** Whether `block` is one to stand on: a full cell, not one a click turns. */
const floor = (block) => block?.boundingBox === 'block' && !TURNED.test(block.name)

const within = (r, p) => p.x >= r.lo.x && p.x <= r.hi.x && p.y >= r.lo.y && p.y <= r.hi.y && p.z >= r.lo.z && p.z <= r.hi.z

/**
 * The feet cells of the region from which a walk leads to its side edge, with the cells keyed
 * in `filled` taken as solid and those in `scaffold` as dug where a walk goes through them (and
 * solid to stand on): found backwards from the edge, over the steps a walk takes.
 */
function exitsOf (bot, region, filled, scaffold) {
  const solid = (x, y, z) => filled.includes(keyOf({ x, y, z })) || floor(bot.blockAt(new Vec3(x, y, z), false))
  const open = (x, y, z) => {
    if (filled.includes(keyOf({ x, y, z }))) return false
    const block = bot.blockAt(new Vec3(x, y, z), false)
    return block?.boundingBox === 'empty' || scaffold.has(keyOf({ x, y, z })) || standsOpen(block)
  }
  const stand = (p) => open(p.x, p.y, p.z) && open(p.x, p.y + 1, p.z) && solid(p.x, p.y - 1, p.z)
  // From p to q beside it: up needs the head room of a jump; down, the column over q open to p's head.
  const step = (p, q) => {
    if (q.y > p.y) return open(p.x, p.y + 2, p.z)
    for (let y = q.y + 2; y <= p.y + 1; y++) if (!open(q.x, y, q.z)) return false
    return true
  }
  const reached = new Set()
  const queue = []
  const reach = (p) => {
    reached.add(keyOf(p))
    queue.push(p)
  }
  for (let x = region.lo.x; x <= region.hi.x; x++) {
    for (let z = region.lo.z; z <= region.hi.z; z++) {
      if (x !== region.lo.x && x !== region.hi.x && z !== region.lo.z && z !== region.hi.z) continue
      for (let y = region.lo.y; y <= region.hi.y; y++) if (stand({ x, y, z })) reach({ x, y, z })
    }
  }
  while (queue.length) {
    const q = queue.pop()
    for (const [dx, dz, rise] of MOVES) {
      const p = { x: q.x - dx, y: q.y - rise, z: q.z - dz }
      if (within(region, p) && !reached.has(keyOf(p)) && stand(p) && step(p, q)) reach(p)
    }
  }
  return reached
}

/**
 * A test of a feet cell {x, y, z} the bot may place `cell` from: one that keeps a way out once
 * it fills its cells, the scaffold blocks keyed in `scaffold` dug where the way goes through them.
 */
function wayOut (bot, region, cell, scaffold = new Set()) {
  const placedOpen = cell.group === DOOR && cell.want.state.open === 'true'
  const exits = exitsOf(bot, region, placedOpen ? [] : cell.fills, scaffold)
  const { lo, hi } = region.box
  const underTop = (p) => p.x >= lo.x && p.x <= hi.x && p.z >= lo.z && p.z <= hi.z && p.y <= hi.y
  const air = (x, y, z) => !cell.fills.includes(keyOf({ x, y, z })) && bot.blockAt(new Vec3(x, y, z), false)?.boundingBox === 'empty'
  // A stand over open air is one a tower of scaffolding reaches (the walk towers up to it): its
  // way out is down the tower, dug under the feet, and out from its foot.
  const towered = (p) => {
    if (!air(p.x, p.y, p.z) || !air(p.x, p.y + 1, p.z)) return false
    let y = p.y
    while (y > region.lo.y && air(p.x, y - 1, p.z)) y--
    return y < p.y && exits.has(keyOf({ x: p.x, y, z: p.z }))
  }
  return (p) => !underTop(p) || exits.has(keyOf(p)) || towered(p)
}

module.exports = { regionOf, wayOut, standsOpen, TURNED }
