'use strict'
// Actions made of repeated steps in the world (pillar-up.js, dig-stairs.js, tunnel.js). Each
// step either works, checked against the world, or throws a Stop; the run then reports how
// many steps were done and why it stopped. Positions are world blocks (x east, y up, z south).
const { HelperError } = require('./errors')
const { settle } = require('./steering')

/** Why a run ended early: `reason` is the stop reason (and the tool's failure code), the message one line for the reader. */
class Stop extends Error {
  constructor (reason, message, extra = {}) {
    super(message)
    this.reason = reason
    this.extra = extra
  }
}

const DISCONNECTED = () => new Stop('disconnected', 'the bot left the server')

/**
 * Halting: the `stop` action (stop.js; Python sends it when it gives up on a call or the run
 * is asked to stop) counts up, and every multi-step helper started before it stops at its next
 * step (runSteps, build.js, follow.js).
 */
function halt (bot) {
  bot._mcagentHalts = (bot._mcagentHalts ?? 0) + 1
}

/** @returns a function that says whether a stop came after this call began */
function stopWatch (bot) {
  const at = bot._mcagentHalts ?? 0
  return () => (bot._mcagentHalts ?? 0) !== at
}

/** @returns a function that throws Stop('stopped') once a stop came after this call began */
function haltWatch (bot) {
  const asked = stopWatch(bot)
  return () => {
    if (asked()) throw new Stop('stopped', 'stopped before its next step, as asked')
  }
}

/**
 * Runs `step(i)` for i = 0..count-1 until one throws a Stop.
 * @returns {{steps: number, stop_reason: string, detail: string}} plus a stop's extra fields
 */
async function runSteps (bot, count, step) {
  const halted = haltWatch(bot)
  let ended = false
  const onEnd = () => { ended = true }
  bot.once('end', onEnd)
  let done = 0
  let stop = null
  try {
    for (; done < count; done++) {
      if (ended) throw DISCONNECTED()
      halted()
      await settle(bot) // from rest on the ground: digging in the air is 5 times slower, and a jump needs footing
      await step(done)
    }
  } catch (err) {
    // whatever a step was doing when the connection went, the disconnection is why it stopped
    if (ended) stop = DISCONNECTED()
    else if (err instanceof Stop) stop = err
    else if (err instanceof HelperError && err.code === 'timeout') stop = new Stop('timeout', err.message)
    else throw err
  } finally {
    bot.removeListener('end', onEnd)
  }
  return {
    steps: done,
    stop_reason: stop?.reason ?? 'completed',
    detail: stop?.message ?? `all ${count} steps done`,
    ...stop?.extra
  }
}

module.exports = { Stop, runSteps, halt, haltWatch, stopWatch }
