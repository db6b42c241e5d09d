'use strict'
// Crafting an item from what the inventory holds: a recipe the inventory can make (Mineflayer's
// recipesFor over minecraft-data), in the inventory's 2x2 grid or at a crafting table (the
// nearest a walk reaches within the radius, or one from the inventory set down beside the bot),
// one craft at a time until the count is reached. What was made is counted in the inventory
// before and after; a recipe that cannot be made is refused with its missing ingredients named.
// Positions are world blocks (x east, y up, z south).
const { HelperError, required } = require('./errors')
const { Stop, runSteps } = require('./stepwise')
const { withTimeout } = require('./waiting')
const { kindOf, left } = require('./approach')
const { carried, counts, asItems, changes, itemKind, readBack } = require('./inventory')
const { stationFor, lacking, madeReason } = require('./making')
const { vec } = require('./state')

const TABLE = 'crafting_table'

/** @param {{item: string, count?: number, radius?: number, timeout_s?: number}} args */
async function craft (bot, args) {
  const { item, count, radius, timeout_s: timeoutS } = required(args, 'item', 'count', 'radius', 'timeout_s')
  const kind = itemKind(bot, item)
  if (!bot.recipesAll(kind.id, null, true).length) throw new HelperError('bad_args', `${item} is not made by crafting`)
  const deadline = Date.now() + timeoutS * 1000
  const before = counts(bot)
  const had = carried(bot, (i) => i.type === kind.id)
  const made = () => carried(bot, (i) => i.type === kind.id) - had
  const station = { table: null, placed: false }
  // A round crafts one recipe, which makes at least one: `count` rounds are enough, and one more
  // finds the count reached. Rounds that made nothing end it short: incomplete (madeReason).
  const run = await runSteps(bot, count + 1, async () => {
    if (made() >= count) throw new Stop('completed', `made ${made()} ${item}`)
    const recipe = await usableRecipe(bot, kind, radius, station, deadline)
    await withTimeout(bot.craft(recipe, 1, station.table ?? undefined), left(deadline), `crafting ${item}`)
    await readBack(bot, left(deadline)) // a slot update that left before the bot's last click would otherwise stand
  })
  const after = counts(bot)
  const missing = run.stop_reason === 'refused' ? run.missing : []
  return {
    item,
    asked: count,
    made: made(),
    stop_reason: madeReason(made(), count, run.stop_reason),
    detail: run.detail,
    missing,
    table: station.table && vec(station.table.position),
    placed_table: station.placed,
    inventory_before: asItems(before),
    inventory: asItems(after),
    changes: changes(before, after)
  }
}

/**
 * A recipe the inventory covers now: without a table if one does, else at a table (walked to, or
 * set down from the inventory). Throws Stop('refused') naming what the nearest recipe lacks.
 */
async function usableRecipe (bot, kind, radius, station, deadline) {
  const inHand = bot.recipesFor(kind.id, null, 1, null)
  if (inHand.length) return inHand[0]
  const atTable = bot.recipesFor(kind.id, null, 1, true)
  if (!atTable.length) {
    const missing = shortest(bot, bot.recipesAll(kind.id, null, true))
    const tableNeeded = !bot.recipesAll(kind.id, null, null).length && !bot.findBlock({ matching: kindOf(bot, TABLE).id, maxDistance: radius })
    if (tableNeeded && carried(bot, (i) => i.name === TABLE) === 0) missing.push({ name: TABLE, count: 1 })
    throw lacking(kind.name, missing)
  }
  if (!station.table || bot.blockAt(station.table.position)?.name !== TABLE) {
    const { block, placed } = await stationFor(bot, TABLE, radius, deadline)
    station.table = block
    station.placed ||= placed
  }
  return atTable[0]
}

/** The ingredients the recipe needing the fewest more items lacks: [{name, count}]. */
function shortest (bot, recipes) {
  const have = counts(bot)
  let best = null
  for (const recipe of recipes) {
    const needs = recipe.delta.filter((d) => d.count < 0).map((d) => {
      const name = bot.registry.items[d.id].name
      return { name, count: -d.count - (have[name] ?? 0) }
    }).filter((m) => m.count > 0)
    const total = needs.reduce((n, m) => n + m.count, 0)
    if (!best || total < best.total) best = { needs, total }
  }
  return best?.needs ?? []
}

module.exports = { craft }
