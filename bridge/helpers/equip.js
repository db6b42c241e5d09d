'use strict'
// mc-equip: putting an item in a hand or armour slot.
const { HelperError, required } = require('./errors')
const { inventory } = require('./inventory')

async function equip (bot, args) {
  const { item, destination } = required(args, 'item', 'destination')
  const found = bot.inventory.items().find((i) => i.name === item)
  if (!found) throw new HelperError('refused', `no ${item} in the inventory`)
  await bot.equip(found, destination)
  return { equipped: item, destination, ...inventory(bot) }
}

module.exports = { equip }
