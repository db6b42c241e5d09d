'use strict'
// Reaching a block that lies under others (ore in stone, stone under the grass): a staircase dug
// down (or up) towards it and a tunnel along, one step at a time, each step's way chosen from
// where the block is then. Never straight down: a stair step digs only ahead of the feet
// (digging.js), never into lava or water (digging.js refuses it and stops). Positions are world
// blocks (x east, y up, z south).
const { feetBlock } = require('./frame')
const { yawToDeg, facingOf } = require('./angles')
const { digStep, frameAlong, toolLacking, toolsSaid, fastest, digSeconds } = require('./digging')
const { PLANS } = require('./dig-stairs')
const { PLAN: TUNNEL } = require('./tunnel')
const { Stop, haltWatch } = require('./stepwise')
const { settle } = require('./steering')
const { HelperError } = require('./errors')
const { place } = require('./place')
const { pickItem } = require('./pillar-up')

// A block 16 below and 16 along is 32 steps away; a few more for the turns.
const MAX_STEPS = 40
// A block slower than this to dig with what is carried stops the way for the tool that digs it
// faster (stone by hand: 7.5 s; with a wooden pickaxe 1.15 s).
const SLOW_DIG_S = 3
// A step digs at most three blocks and walks one; none is begun with less time left than this.
const STEP_S = 3 * SLOW_DIG_S + 3
// The facing a quarter turn right of each.
const TURNED = { north: 'east', east: 'south', south: 'west', west: 'north' }

/**
 * Digs towards `cell` until it is beside the body (a side of the feet or head cell, or of the
 * cell under one of them: within 2 blocks of the feet, never the block the bot stands on), or
 * the next step would dig it (a block 2 above the head: in reach, 2.5 from the feet). A block on
 * the way too slow to dig with what the bot carries, which a tool it lacks digs faster (stone by
 * hand), stops it before it is dug, `needs_tool` with the cheapest tool as `missing`.
 * @returns the blocks dug, in order
 */
async function burrowTo (bot, cell, deadline, what) {
  const halted = haltWatch(bot)
  const dug = []
  let along = null // the facing of the last step
  for (let step = 0; !beside(feetBlock(bot), cell); step++) {
    if (step >= MAX_STEPS) throw new Stop('unreachable', `not beside the ${what} after ${MAX_STEPS} steps dug towards it`)
    if (deadline - Date.now() < STEP_S * 1000) throw new HelperError('timeout', `the call ran out of time digging to the ${what}`)
    halted()
    const feet = feetBlock(bot)
    const plan = planFor(cell.y - feet.y)
    const facing = notBack(wayTo(feet, cell), along ?? facingOf(yawToDeg(bot.entity.yaw)), plan !== TUNNEL)
    along = facing
    const cells = plan.cells.map((c) => frameAlong(bot, facing).toWorld(...c))
    if (cells.some((c) => c.equals(cell))) break // the next step would dig the block itself: it is in reach
    notTooSlow(bot, cells)
    await settle(bot)
    dug.push(...await digStep(bot, facing, plan, (pos) => setFooting(bot, pos)))
  }
  return dug
}

/**
 * A block from the inventory (a cheap filler first) where a step's footing is open air: a stair
 * dug down into a cave goes on down through it as a stair, a way back up, instead of stopping
 * at the drop (the forest's iron, below a cave's roof). Nothing carried, or no solid block to
 * set it against: the footing stays missing and the step stops as before.
 */
async function setFooting (bot, pos) {
  // with nothing beside it to set it against (the last step was set over the cave too), the
  // block under the feet's floor first: it is beside the footing and under a solid block
  for (const cell of [pos, feetBlock(bot).offset(0, -2, 0), pos]) {
    const item = pickItem(bot)
    if (item === null) return
    const set = await place(bot, { item, x: cell.x, y: cell.y, z: cell.z }).catch(() => null)
    if (set?.placed && cell === pos) return
  }
}

/** Whether `cell` is at a side of the feet or head cell at `feet`, or of the cell under the feet. */
function beside (feet, cell) {
  const dy = cell.y - feet.y
  return Math.abs(cell.x - feet.x) + Math.abs(cell.z - feet.z) === 1 && dy >= -1 && dy <= 1
}

/**
 * The facing along the longer horizontal way to `cell`; null (keep the way the bot faces) while
 * the block is 2 or more above or below and at most one block aside: a stair turned back there
 * would need the cell it just dug out as its footing.
 */
function wayTo (feet, cell) {
  const dx = cell.x - feet.x
  const dz = cell.z - feet.z
  if (Math.abs(cell.y - feet.y) >= 2 && Math.abs(dx) + Math.abs(dz) <= 1) return null
  if (dx !== 0 && Math.abs(dx) >= Math.abs(dz)) return dx > 0 ? 'east' : 'west'
  if (dz !== 0) return dz > 0 ? 'south' : 'north'
  return null
}

/**
 * The facing of the next step: `toward` the block, or on as `last` went when the block is
 * straight below or above. A stair never turns back on itself (`stair`): its cells ahead would
 * be the last step's footing, and the way back up would be a shaft (the taiga's ore, straight
 * below, was dug to as a 1 by 2 shaft 4 deep no walk left); it turns right instead, a spiral.
 */
function notBack (toward, last, stair) {
  if (toward === null) return last
  return stair && toward === TURNED[TURNED[last]] ? TURNED[last] : toward
}

/** A stair down while the block is 2 or more below the feet, a stair up while 2 or more above, else a tunnel. */
function planFor (dy) {
  if (dy <= -2) return PLANS.down
  return dy >= 2 ? PLANS.up : TUNNEL
}

/** Stops with `needs_tool` before a block of `cells` too slow to dig with what is carried, whose tool the bot lacks. */
function notTooSlow (bot, cells) {
  for (const pos of cells) {
    const block = bot.blockAt(pos, false)
    if (!block || block.boundingBox !== 'block' || digSeconds(bot, block, fastest(bot, block)) <= SLOW_DIG_S) continue
    const tools = toolLacking(bot, { id: block.type })
    if (tools) throw new Stop('needs_tool', `${block.name} is on the way: digging it takes ${toolsSaid(tools)}, and the bot carries none`, { missing: [{ name: tools[0], count: 1 }] })
  }
}

module.exports = { burrowTo }
