'use strict'
// Climbing straight up by building: jump, place a block under the feet at the top of the
// jump, land on it; N times. Positions are world blocks (x east, y up, z south); the height
// gained is measured from the feet, never counted from the placements.
const { Vec3 } = require('vec3')
const { HelperError, required } = require('./errors')
const { withTimeout } = require('./waiting')
const { vec } = require('./state')
const { tidy } = require('./numbers')
const { Stop, runSteps } = require('./stepwise')
const { settle } = require('./steering')
const { feetBlock } = require('./frame')
const { carried } = require('./inventory')

// Filler blocks used first when no item is named; any other full-cube block comes after.
const CHEAP = ['dirt', 'cobblestone', 'cobbled_deepslate', 'netherrack', 'stone']
// A jump's feet rise 1.0 block in 3 ticks and peak at 1.25 in 6; placing once they are 0.1
// above the new block's top leaves the server (which refuses a block where the feet are) a
// tick of margin each way.
const PLACE_HEIGHT = 1.1
// The jump reaches PLACE_HEIGHT within ~0.2 s; the server confirms a placement within a tick or two.
const JUMP_MS = 1000
const PLACE_MS = 2000
const UP = new Vec3(0, 1, 0)

/** Whether `name` is a block that is a full cube: something to stand on, placed from the item. */
function fullCube (bot, name) {
  const shapes = bot.registry.blockCollisionShapes
  const id = shapes.blocks[name]
  return typeof id === 'number' && JSON.stringify(shapes.shapes[id]) === '[[0,0,0,1,1,1]]'
}

/** The item to build with: the one named, else a cheap filler, else any full-cube block carried; null if none. */
function pickItem (bot, name) {
  const names = [...new Set(bot.inventory.items().map((i) => i.name))]
  if (name !== undefined) return names.includes(name) ? name : null
  const blocks = names.filter((n) => fullCube(bot, n))
  return CHEAP.find((n) => blocks.includes(n)) ?? blocks[0] ?? null
}

/** A jump lifts the head into the two blocks above it (up 2 and 3 from the feet): both must be free. */
function checkHeadroom (bot, feet) {
  for (const up of [2, 3]) {
    const block = bot.blockAt(feet.offset(0, up, 0), false)
    if (block?.boundingBox !== 'empty') throw new Stop('blocked_above', `no room to jump: ${block?.name ?? 'an unloaded block'} at up ${up} from the feet`)
  }
}

/** Resolves once the feet are `height` above `feet`'s bottom, JUMP_MS pass, or the bot leaves
(physics ticks stop with the connection, so the tick alone could wait forever). */
function riseTo (bot, feet, height) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      bot.removeListener('physicsTick', onTick)
      bot.removeListener('end', done)
      resolve()
    }
    const onTick = () => { if (bot.entity.position.y >= feet.y + height) done() }
    const timer = setTimeout(done, JUMP_MS)
    bot.on('physicsTick', onTick)
    bot.once('end', done)
  })
}

/** One step: jump from the feet block, place `item` in it at the top of the jump, land on it; counts the block in `tally`. */
async function climbOne (bot, item, tally) {
  const feet = feetBlock(bot)
  checkHeadroom(bot, feet)
  const stack = bot.inventory.items().find((i) => i.name === item)
  if (!stack) throw new Stop('no_blocks', `no ${item} left to place`)
  const below = bot.blockAt(feet.offset(0, -1, 0), false)
  if (below?.boundingBox !== 'block') throw new Stop('place_failed', `nothing solid under the feet to place against (${below?.name ?? 'unloaded'})`)
  await bot.equip(stack, 'hand')
  bot.setControlState('jump', true)
  try {
    await riseTo(bot, feet, PLACE_HEIGHT)
  } finally {
    bot.setControlState('jump', false)
  }
  // Against the top of the block below, looking straight down at it. The look is forced: the
  // plain placeBlock turns smoothly and would still be turning when the bot lands. It rejects
  // on a late confirmation too; the block read back below is what counts.
  await withTimeout(bot._placeBlockWithOptions(below, UP, { forceLook: true, swingArm: 'right' }), PLACE_MS, 'placing').catch(() => {})
  await settle(bot)
  const placed = bot.blockAt(feet, false)?.name === item
  if (placed) tally.placed++
  const now = feetBlock(bot)
  if (now.y < feet.y) throw new Stop('fell', `fell to y ${now.y} from y ${feet.y}`)
  if (!placed) throw new Stop('place_failed', `${item} did not appear under the feet at (${feet.x}, ${feet.y}, ${feet.z})`)
  if (now.y !== feet.y + 1) throw new Stop('place_failed', `placed ${item} but the feet are at y ${now.y}, not on it`)
}

/** @param {{blocks: number, item?: string}} args */
async function pillarUp (bot, args) {
  const { blocks, item } = required(args, 'blocks')
  if (item !== undefined && (typeof item !== 'string' || !fullCube(bot, item))) throw new HelperError('bad_args', `item must name a full block to stand on, e.g. dirt (got ${JSON.stringify(item)})`)
  const start = bot.entity.position.clone()
  const { yaw, pitch } = bot.entity
  const chosen = pickItem(bot, item)
  const tally = { placed: 0 }
  const run = chosen
    ? await runSteps(bot, blocks, () => climbOne(bot, chosen, tally))
    : { steps: 0, stop_reason: 'no_blocks', detail: item ? `no ${item} in the inventory` : 'no full block in the inventory to build with' }
  // each placement turned the head straight down, the yaw to wherever the block's centre lay
  if (run.stop_reason !== 'disconnected') await bot.look(yaw, pitch, true)
  const end = bot.entity.position
  return {
    item: chosen,
    start: vec(start),
    end: vec(end),
    height_gained: tidy(end.y - start.y),
    blocks_used: tally.placed,
    blocks_left: chosen ? carried(bot, (i) => i.name === chosen) : 0,
    ...run
  }
}

module.exports = { pillarUp, climbOne, pickItem, fullCube }
