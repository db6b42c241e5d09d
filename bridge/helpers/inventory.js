'use strict'
// mc-inventory: what the bot carries; and the item counts other helpers take from it.
const { HelperError } = require('./errors')
const { withTimeout } = require('./waiting')

function itemView (i) {
  return { name: i.name, count: i.count, slot: i.slot }
}

/** The item kind named, or bad_args. */
function itemKind (bot, name) {
  const kind = typeof name === 'string' ? bot.registry.itemsByName[name] : null
  if (!kind) throw new HelperError('bad_args', `item must be an item's name${name ? `; '${name}' is not one` : ''}`)
  return kind
}

/** How many items the inventory holds, over all stacks, of those `matches` accepts (all of them without it). */
function carried (bot, matches = () => true) {
  return bot.inventory.items().filter(matches).reduce((sum, i) => sum + i.count, 0)
}

/** What the inventory holds by name: {name: count}. */
function counts (bot) {
  const by = {}
  for (const i of bot.inventory.items()) by[i.name] = (by[i.name] ?? 0) + i.count
  return by
}

/** {name: count} as [{name, count}]. */
function asItems (byName) {
  return Object.entries(byName).map(([name, count]) => ({ name, count }))
}

/** What changed between two counts: [{name, count}], count gained (> 0) or lost (< 0). */
function changes (before, after) {
  const names = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...names].map((name) => ({ name, count: (after[name] ?? 0) - (before[name] ?? 0) })).filter((c) => c.count !== 0)
}

function inventory (bot) {
  const items = bot.inventory.items()
  return {
    items: items.map(itemView),
    held: bot.heldItem ? itemView(bot.heldItem) : null,
    empty_slots: bot.inventory.emptySlotCount()
  }
}

/**
 * The inventory as the server keeps it, into the bot's copy, within `ms`. From 1.17 Mineflayer
 * applies each click to its own copy and the server answers none: a click the server applied
 * otherwise, or a slot update that crossed it, would stand. Up to 1.16 each click waits for the
 * server's word, and this does nothing.
 */
async function readBack (bot, ms) {
  await withTimeout(bot._syncWindow(bot.inventory), ms, 'reading the inventory back')
}

module.exports = { inventory, carried, counts, asItems, changes, itemKind, readBack }
