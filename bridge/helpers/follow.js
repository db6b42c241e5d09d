'use strict'
// Following a player at a distance with mineflayer-pathfinder's GoalFollow, for a bounded time:
// the distance is sampled every tick-ish, so the report says how well it was kept, measured.
// Positions are world blocks (x east, y up, z south); distances are blocks, feet to feet.
const { goals } = require('mineflayer-pathfinder')
const { HelperError, required } = require('./errors')
const { movementsFor } = require('./goto')
const { playerEntity, vec } = require('./state')
const { sleep } = require('./waiting')
const { tidy } = require('./numbers')
const { haltWatch } = require('./stepwise')

const SAMPLE_MS = 250

/** @param {{player: string, distance: number, seconds: number}} args */
async function follow (bot, args) {
  const { player, distance, seconds } = required(args, 'player', 'distance', 'seconds')
  const target = playerEntity(bot, player)
  if (!target) throw new HelperError('not_found', `player '${player}' is not in view of ${bot.username}`)
  bot.pathfinder.setMovements(movementsFor(bot, {}))
  bot.pathfinder.setGoal(new goals.GoalFollow(target, distance), true)
  const start = vec(bot.entity.position)
  const samples = []
  let stop = 'completed'
  let ended = false
  const halted = haltWatch(bot)
  const onEnd = () => { ended = true }
  bot.once('end', onEnd)
  try {
    for (const until = Date.now() + seconds * 1000; Date.now() < until;) {
      await sleep(SAMPLE_MS)
      if (ended) { stop = 'disconnected'; break }
      try { halted() } catch { stop = 'stopped'; break }
      if (!bot.entities[target.id]) { stop = 'lost'; break } // out of view: the server stopped sending it
      samples.push(bot.entity.position.distanceTo(target.position))
    }
  } finally {
    bot.removeListener('end', onEnd)
    bot.pathfinder.setGoal(null)
  }
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    player,
    distance,
    seconds,
    stop_reason: stop,
    samples: samples.length,
    median_distance: sorted.length ? tidy(sorted[Math.floor(sorted.length / 2)]) : null,
    max_distance: sorted.length ? tidy(sorted[sorted.length - 1]) : null,
    end_distance: samples.length ? tidy(samples[samples.length - 1]) : null,
    start,
    end: vec(bot.entity.position),
    player_end: vec(target.position)
  }
}

module.exports = { follow }
