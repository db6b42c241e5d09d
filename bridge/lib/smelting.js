'use strict'
// Vanilla's smelting, as far as an agent's tasks meet it (smelting.json; minecraft-data carries
// none): what a furnace makes of an item and how long a fuel burns. Read by the server's
// furnaces (furnaces.js) and the bot's mc-smelt (helpers/smelt.js), so both agree.
const table = require('./smelting.json')

// Ticks (1/20 s) of burning one item takes to smelt.
const SMELT_TICKS = table.smelt_ticks

/** How many ticks an item named `name` burns for (0: not a fuel). */
function fuelTicks (name) {
  if (table.fuel_ticks[name]) return table.fuel_ticks[name]
  for (const [suffix, ticks] of Object.entries(table.fuel_ticks_by_suffix)) if (name.endsWith(suffix)) return ticks
  for (const [prefix, ticks] of Object.entries(table.fuel_ticks_by_prefix)) if (name.startsWith(prefix)) return ticks
  return 0
}

/** The name of what `input` smelts into, or null. */
function productOf (input) {
  return table.recipes[input] ?? null
}

/** The names that smelt into `output`. */
function inputsFor (output) {
  return Object.entries(table.recipes).filter(([, made]) => made === output).map(([input]) => input)
}

module.exports = { SMELT_TICKS, fuelTicks, productOf, inputsFor }
