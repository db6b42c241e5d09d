'use strict'
// What the bot's teammates carry: the other bots of this bridge process in its world
// (connection.js teamOf), each with its inventory by name. The planner asks a teammate for what
// a step lacked when one holds it (agent/goals/asking.py), rather than collecting it.
const { teamOf } = require('./connection')
const { counts, asItems } = require('./inventory')

function teamHoldings (bot) {
  return { teammates: teamOf(bot).slice(1).map((b) => ({ player: b.username, items: asItems(counts(b)) })) }
}

module.exports = { teamHoldings }
