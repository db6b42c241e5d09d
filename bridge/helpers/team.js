'use strict'
// What the bot's team carries: the bots of this bridge process in its world (connection.js
// teamOf), the bot itself first, each with its inventory by name. The planner asks a teammate for what
// a step lacked when one holds it (agent/goals/asking.py), rather than collecting it.
const { teamOf } = require('./connection')
const { counts, asItems } = require('./inventory')

function teamHoldings (bot) {
  const [me, ...mates] = teamOf(bot).map((b) => ({ player: b.username, items: asItems(counts(b)) }))
  return { me, mates }
}

module.exports = { teamHoldings }
