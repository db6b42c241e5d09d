'use strict'
// Smelting in a furnace: the nearest a walk reaches within the radius, or one from the inventory
// set down beside the bot. `item` is what to make (iron_ingot) or what to smelt (raw_iron); the
// input is one the inventory holds, the fuel the one named or the best carried, enough of it for
// the count (smelting.js says how long each burns). The bot waits by the furnace and takes the
// output; what was made is counted in the inventory before and after. Positions are world
// blocks (x east, y up, z south).
const { HelperError, required } = require('./errors')
const { Stop, haltWatch } = require('./stepwise')
const { withTimeout } = require('./waiting')
const { left } = require('./approach')
const { carried, counts, asItems, changes } = require('./inventory')
const { stationFor, lacking, madeReason } = require('./making')
const { vec } = require('./state')
const { SMELT_TICKS, fuelTicks, productOf, inputsFor } = require('../lib/smelting')

const FURNACE = 'furnace'
const POLL_MS = 500
// Taking the output is one window click; past this the server is not answering.
const TAKE_MS = 3000
// Fuels tried when none is named, best first; then any other carried fuel but the input.
const PREFERRED_FUELS = ['coal', 'charcoal', 'coal_block']

/** @param {{item: string, count?: number, fuel?: string, radius?: number, timeout_s?: number}} args */
async function smelt (bot, args) {
  const { item, count, fuel = null, radius, timeout_s: timeoutS } = required(args, 'item', 'count', 'radius', 'timeout_s')
  const output = typeof item === 'string' && (productOf(item) ?? (inputsFor(item).length ? item : null))
  if (!output || !bot.registry.itemsByName[output]) throw new HelperError('bad_args', `item must be something a furnace makes or smelts${item ? `; '${item}' is neither` : ''}`)
  if (fuel !== null && !(bot.registry.itemsByName[fuel] && fuelTicks(fuel) > 0)) throw new HelperError('bad_args', `fuel must be an item that burns; '${fuel}' does not`)
  const deadline = Date.now() + timeoutS * 1000
  const before = counts(bot)
  const made = () => carried(bot, (i) => i.name === output) - (before[output] ?? 0)
  const plan = { output, input: null, fuel: null, fuelCount: 0, furnace: null, placed: false }
  let stop = null
  try {
    planInputs(bot, plan, item, count, fuel)
    const { block, placed } = await stationFor(bot, FURNACE, radius, deadline)
    plan.furnace = block
    plan.placed = placed
    await run(bot, plan, count, made, deadline)
  } catch (err) {
    if (!(err instanceof Stop) && err.code !== 'timeout') throw err
    stop = err.reason ? err : new Stop('timeout', err.message)
  }
  const after = counts(bot)
  const reason = madeReason(made(), count, stop?.reason ?? 'incomplete')
  return {
    item: output,
    asked: count,
    made: made(),
    input: plan.input,
    fuel: plan.fuel,
    fuel_used: plan.fuelCount,
    stop_reason: reason,
    detail: stop?.message ?? `made ${made()} ${output} from ${plan.input}`,
    missing: stop?.extra?.missing ?? [],
    furnace: plan.furnace && vec(plan.furnace.position),
    placed_furnace: plan.placed,
    inventory_before: asItems(before),
    inventory: asItems(after),
    changes: changes(before, after)
  }
}

/** Picks the input and the fuel the inventory holds enough of, or Stop('refused') naming what is missing. */
function planInputs (bot, plan, item, count, fuel) {
  const have = counts(bot)
  const inputs = productOf(item) ? [item] : inputsFor(plan.output)
  plan.input = inputs.find((name) => (have[name] ?? 0) >= count) ?? inputs.find((name) => have[name]) ?? inputs[0]
  const missing = []
  if ((have[plan.input] ?? 0) < count) missing.push({ name: plan.input, count: count - (have[plan.input] ?? 0) })
  const fuels = fuel ? [fuel] : [...PREFERRED_FUELS, ...Object.keys(have).filter((n) => fuelTicks(n) > 0)]
  const needed = (name) => Math.ceil(count * SMELT_TICKS / fuelTicks(name))
  const spare = (name) => (have[name] ?? 0) - (name === plan.input ? count : 0)
  plan.fuel = fuels.find((name) => spare(name) >= needed(name)) ?? null
  if (plan.fuel) plan.fuelCount = needed(plan.fuel)
  else missing.push({ name: fuel ?? 'coal', count: needed(fuel ?? 'coal') - Math.max(0, spare(fuel ?? 'coal')) })
  if (missing.length) throw lacking(`smelting ${count} ${plan.output}`, missing)
}

/** Loads the furnace, waits while it smelts (the furnace keeps going if the call ends) and takes the output. */
async function run (bot, plan, count, made, deadline) {
  const halted = haltWatch(bot)
  const furnace = await withTimeout(bot.openFurnace(plan.furnace), left(deadline), 'opening the furnace')
  try {
    const id = (name) => bot.registry.itemsByName[name].id
    await withTimeout(furnace.putFuel(id(plan.fuel), null, plan.fuelCount), left(deadline), 'putting the fuel in')
    await withTimeout(furnace.putInput(id(plan.input), null, count), left(deadline), 'putting the input in')
    while (made() + (furnace.outputItem()?.count ?? 0) < count) {
      halted()
      await sleep(Math.min(POLL_MS, left(deadline)))
    }
  } finally {
    // what was made is taken even when the call stops short of the count
    if (furnace.outputItem()) await withTimeout(furnace.takeOutput(), TAKE_MS, 'taking the output').catch(() => {})
    furnace.close()
  }
}

function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

module.exports = { smelt }
