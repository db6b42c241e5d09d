'use strict'
// mc-equip: putting an item in a hand or armour slot.
const { HelperError, required } = require('./errors')
const { inventory } = require('./inventory')

// What the game lets a player wear in each armour slot, by item name (any item goes in a hand).
// Mineflayer's bot.equip puts anything anywhere, and an item in an armour slot is no longer in
// bot.inventory.items(): wool "worn" on the head was then neither counted nor given.
const WORN = {
  head: /(_helmet|_skull|_head|^carved_pumpkin)$/,
  torso: /(_chestplate|^elytra)$/,
  legs: /_leggings$/,
  feet: /_boots$/
}

async function equip (bot, args) {
  const { item, destination } = required(args, 'item', 'destination')
  const found = bot.inventory.items().find((i) => i.name === item)
  if (!found) throw new HelperError('refused', `no ${item} in the inventory`)
  const worn = WORN[destination]
  if (worn && !worn.test(item)) {
    throw new HelperError('refused', `${item} cannot be worn on the ${destination}; it can be held in the hand or off-hand`)
  }
  await bot.equip(found, destination)
  return { equipped: item, destination, ...inventory(bot) }
}

module.exports = { equip }
