'use strict'
// What crafting (craft.js) and smelting (smelt.js) share: a station to work at, a refusal that
// names what is missing, and the stop reason of a report whose count was read in the inventory.
// Positions are world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { Stop } = require('./stepwise')
const { walkToNearest, kindOf } = require('./approach')
const { carried } = require('./inventory')
const { placeBeside } = require('./place')

/**
 * The nearest `name` block (a crafting table, a furnace) a walk reaches within `radius`, walked
 * to within reach, or else one from the inventory set down beside the bot (also when those
 * within the radius are out of a walk's reach: the table left at the top of the stairs).
 * @returns {{block, placed: boolean}}
 */
async function stationFor (bot, name, radius, deadline) {
  const own = carried(bot, (i) => i.name === name) > 0
  try {
    const { cell } = await walkToNearest(bot, kindOf(bot, name), radius, (c) => new goals.GoalNear(c.x, c.y, c.z, 2), new Set(), deadline)
    return { block: bot.blockAt(cell), placed: false }
  } catch (err) {
    if (!(err instanceof Stop) || !(err.reason === 'not_found' || (err.reason === 'unreachable' && own))) throw err
  }
  if (!own) {
    throw new Stop('refused', `no ${name} within ${radius} blocks and none in the inventory`, { missing: [{ name, count: 1 }] })
  }
  const block = await placeBeside(bot, name)
  if (!block) throw new Stop('refused', `no room beside the bot to set the ${name} down`, { missing: [] })
  return { block, placed: true }
}

/** Stop('refused') saying what `what` needs more of: [{name, count}]. */
function lacking (what, missing) {
  return new Stop('refused', `${what} needs ${missing.map((m) => `${m.count} more ${m.name}`).join(', ')}`, { missing })
}

/** A report's stop reason: completed once `made` reached `asked`; short of it, a run that ran out of rounds, or a refusal after some were made, is incomplete. */
function madeReason (made, asked, stopReason) {
  if (made >= asked) return 'completed'
  return stopReason === 'completed' || (stopReason === 'refused' && made > 0) ? 'incomplete' : stopReason
}

module.exports = { stationFor, lacking, madeReason }
