'use strict'
// mc-status: the bot's state (state.js), and whether it stands or falls.
const { once } = require('events')
const { state } = require('./state')
const { withTimeout } = require('./waiting')

// A physics tick is 50 ms; past this the second sample is taken without waiting for one.
const TICK_WAIT_MS = 100

/** The state plus whether the bot is standing or falling: two position samples one physics tick apart. */
async function status (bot) {
  const y0 = bot.entity.position.y
  await withTimeout(once(bot, 'physicsTick'), TICK_WAIT_MS, 'a physics tick').catch(() => {})
  const falling = !bot.entity.onGround && bot.entity.position.y < y0 - 1e-3
  return { ...state(bot), vertical_state: falling ? 'falling' : 'stable' }
}

module.exports = { status }
