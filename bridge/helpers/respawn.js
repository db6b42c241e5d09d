'use strict'
// mc-respawn: death and respawn. The bot does not respawn by itself (connection.js): a death stays
// visible to the planner until it calls mc-respawn.
const { withTimeout } = require('./waiting')
const { state } = require('./state')
const { once } = require('events')

const RESPAWN_TIMEOUT_MS = 10000

async function respawn (bot) {
  if (bot.isAlive) return { respawned: false, ...state(bot) }
  const spawned = once(bot, 'spawn')
  bot.respawn()
  await withTimeout(spawned, RESPAWN_TIMEOUT_MS, 'respawning')
  // The respawn reloads the world: until its chunks are back the bot would see nothing.
  await withTimeout(bot.waitForChunksToLoad(), RESPAWN_TIMEOUT_MS, 'loading the chunks after the respawn')
  return { respawned: true, ...state(bot) }
}

module.exports = { respawn }
