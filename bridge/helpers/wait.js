'use strict'
// mc-wait: real time passing, the bot's state after it. A wait may end early, once the bot
// carries an item (what a teammate was asked to hand over) or once a player speaks to it (an
// ask to read): a team's waits are for the other's move, not for the clock. A stop (Ctrl-C, a
// teammate who reached the team's goal) ends it too.
const { waitFor } = require('./waiting')
const { state } = require('./state')
const { required } = require('./errors')
const { carried, itemKind } = require('./inventory')
const { unread } = require('./inbox')
const { stopWatch } = require('./stepwise')

/**
 * Waits `seconds` in real time, or until `until_carried` ({name, count}) is carried or, with
 * `until_told`, a player's line is unread, or a stop comes; reports the state after, the seconds
 * waited and what ended it ('time', 'carried', 'told' or 'stopped').
 * @param {{seconds: number, until_carried?: {name: string, count: number}|null, until_told?: boolean}} args
 */
async function wait (bot, args) {
  const { seconds, until_carried: untilCarried = null, until_told: untilTold = false } = required(args, 'seconds')
  const kind = untilCarried && itemKind(bot, untilCarried.name)
  const ends = {
    stopped: stopWatch(bot),
    carried: () => kind != null && carried(bot, (i) => i.type === kind.id) >= untilCarried.count,
    told: () => untilTold === true && unread(bot) > 0
  }
  const started = Date.now()
  const endedBy = await waitFor(() => Object.keys(ends).find((name) => ends[name]()), seconds * 1000) ?? 'time'
  return { ...state(bot), waited_s: (Date.now() - started) / 1000, ended_by: endedBy }
}

module.exports = { wait }
