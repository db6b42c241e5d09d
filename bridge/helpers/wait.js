'use strict'
// mc-wait: real time passing, the bot's state after it.
const { sleep } = require('./waiting')
const { state } = require('./state')
const { required } = require('./errors')

/** Waits `seconds` in real time; reports the state after. */
async function wait (bot, args) {
  const { seconds } = required(args, 'seconds')
  await sleep(seconds * 1000)
  return state(bot)
}

module.exports = { wait }
