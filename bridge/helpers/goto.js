'use strict'
// Walking to a point with mineflayer-pathfinder. Terrain changes only when asked: digging
// through blocks (`allow_dig`), placing blocks to tower or bridge (`allow_build`).
const { Movements, goals } = require('mineflayer-pathfinder')
const { withTimeout } = require('./waiting')
const { vec } = require('./state')
const { SAFE_DROP } = require('./blocks')
const { carried } = require('./inventory')
const { required } = require('./errors')

/**
 * @param {{x: number, y: number, z: number, range?: number, exact?: boolean, timeout_s: number,
 *   allow_dig: boolean, allow_build: boolean, max_drop: number}} args world coordinates, blocks;
 *   `exact`: end with the feet in the block x, y, z (floored), else within `range` of the point.
 */
async function goto (bot, args) {
  const { x, y, z, exact = false, timeout_s: timeoutS } = required(args, 'x', 'y', 'z', 'timeout_s', 'allow_dig', 'allow_build', 'max_drop')
  const range = exact ? 0 : required(args, 'range').range
  const movements = movementsFor(bot, args)
  bot.pathfinder.setMovements(movements)
  const goal = exact ? new goals.GoalBlock(Math.floor(x), Math.floor(y), Math.floor(z)) : new goals.GoalNear(x, y, z, range)
  const start = vec(bot.entity.position)
  const scaffolding = () => carried(bot, (i) => movements.scafoldingBlocks.includes(i.type))
  const before = scaffolding()
  let dug = 0
  const onDug = () => { dug++ }
  bot.on('diggingCompleted', onDug)
  let reason = 'reached'
  try {
    await withTimeout(bot.pathfinder.goto(goal), timeoutS * 1000, 'walking there', () => bot.pathfinder.stop())
  } catch (err) {
    reason = err.code === 'timeout' ? 'timeout' : err.name === 'NoPath' ? 'no_path' : `failed: ${err.message}`
  } finally {
    bot.removeListener('diggingCompleted', onDug)
  }
  const end = bot.entity.position
  const left = exact ? Math.hypot(Math.floor(end.x) - Math.floor(x), Math.floor(end.y) - Math.floor(y), Math.floor(end.z) - Math.floor(z))
    : Math.hypot(end.x - x, end.y - y, end.z - z)
  // The feet decide, not the pathfinder's word: its goto once resolved with the bot 7 blocks
  // below the goal, at the bottom of a shaft it had no way out of. GoalNear measures from the
  // feet block's corner, the feet stand within a block of it: a block of slack.
  const reached = exact ? left === 0 : left <= range + 1
  if (!reached && reason === 'reached') reason = 'stopped_short'
  return { reached, reason, start, end: vec(end), target: { x, y, z }, distance_left: left, blocks_placed: Math.max(0, before - scaffolding()), blocks_dug: dug }
}

/** What pathfinder may do on the way: never dig or build unless allowed; never drop further than max_drop. */
function movementsFor (bot, { allow_dig: dig = false, allow_build: build = false, max_drop: maxDrop = SAFE_DROP }) {
  const movements = new Movements(bot)
  movements.canDig = dig === true
  movements.allow1by1towers = build === true
  if (build !== true) movements.scafoldingBlocks = []
  movements.allowParkour = false // gaps are jumped only by moves the bot can take back
  movements.maxDropDown = maxDrop
  return movements
}

module.exports = { goto, movementsFor }
