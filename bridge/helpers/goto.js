'use strict'
// Walking to a point with mineflayer-pathfinder, without digging or building on the way.
const { Movements, goals } = require('mineflayer-pathfinder')
const { HelperError } = require('./errors')
const { withTimeout } = require('./waiting')
const { vec } = require('./state')

const MAX_TIMEOUT_S = 120

/** @param {{x: number, y: number, z: number, range?: number, timeout_s?: number}} args world coordinates, blocks */
async function goto (bot, { x, y, z, range = 1, timeout_s: timeoutS = 30 }) {
  if (![x, y, z].every(Number.isFinite)) throw new HelperError('bad_args', 'x, y and z must be numbers (world coordinates)')
  if (!Number.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > MAX_TIMEOUT_S) throw new HelperError('bad_args', `timeout_s must be in (0, ${MAX_TIMEOUT_S}]`)
  const movements = new Movements(bot)
  movements.canDig = false // honest travel: no terrain changes
  movements.allow1by1towers = false
  bot.pathfinder.setMovements(movements)
  const start = vec(bot.entity.position)
  let reason = 'reached'
  try {
    await withTimeout(bot.pathfinder.goto(new goals.GoalNear(x, y, z, range)), timeoutS * 1000, 'walking there', () => bot.pathfinder.stop())
  } catch (err) {
    reason = err.code === 'timeout' ? 'timeout' : err.name === 'NoPath' ? 'no_path' : `failed: ${err.message}`
  }
  const end = bot.entity.position
  const left = Math.hypot(end.x - x, end.y - y, end.z - z)
  return { reached: reason === 'reached' || left <= range + 0.5, reason, start, end: vec(end), target: { x, y, z }, distance_left: left }
}

module.exports = { goto }
