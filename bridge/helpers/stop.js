'use strict'
// mc-stop: every control released, any path or multi-step helper stopped.
const { orientation } = require('./angles')
const { halt } = require('./stepwise')

/** Releases every control and stops any path being followed. */
function stop (bot) {
  halt(bot) // a multi-step helper still running stops before its next step
  bot.clearControlStates()
  bot.pathfinder?.stop()
  return { released: true, ...orientation(bot) }
}

module.exports = { stop }
