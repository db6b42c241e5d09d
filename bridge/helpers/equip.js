'use strict'
// mc-equip: putting an item in a hand or armour slot.
const { HelperError } = require('./errors')
const { inventory } = require('./inventory')

async function equip (bot, { item, destination = 'hand' }) {
  const found = bot.inventory.items().find((i) => i.name === item)
  if (!found) throw new HelperError('refused', `no ${item} in the inventory`)
  await bot.equip(found, destination)
  return { equipped: item, destination, ...inventory(bot) }
}

module.exports = { equip }
