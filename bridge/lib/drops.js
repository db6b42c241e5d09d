'use strict'
// What a dug block drops, as the game decides it (no enchantments): nothing when it needs a tool
// the hand does not hold (stone and ores need a pickaxe, iron ore a stone one or better), the
// game's item and count where minecraft-data's loot table says otherwise (iron ore: one raw
// iron; lapis: 4-9), gravel's flint one time in ten, and leaves' rare saplings, sticks and
// apples. flying-squid drops every entry of the loot table whatever the tool, and throws on a
// block with no table (short_grass): each gets an empty one.
const { Vec3 } = require('vec3')

// Items whose count the game draws from this range, where minecraft-data's differs.
const COUNTS = { raw_iron: [1, 1], raw_gold: [1, 1], raw_copper: [2, 5], coal: [1, 1], diamond: [1, 1],
  emerald: [1, 1], lapis_lazuli: [4, 9], redstone: [4, 5] }
// Leaves: [item, chance, least, most]; the sapling is the leaves' own kind.
const LEAVES = [['sapling', 0.05, 1, 1], ['stick', 0.02, 1, 2]]
const APPLE_LEAVES = new Set(['oak_leaves', 'dark_oak_leaves'])
const APPLE_CHANCE = 0.005
const FLINT_CHANCE = 0.1
// How long a drop lies before it can be picked up, and before it vanishes (flying-squid's own).
const PICKUP_MS = 500
const DESPAWN_MS = 5 * 60 * 1000

function install (serv) {
  const { registry } = serv
  for (const block of registry.blocksArray) registry.blockLoot[block.name] ??= { block: block.name, drops: [] }
  serv.on('newPlayer', (player) => {
    player.on('dug', (data) => {
      const held = player.inventory.slots[36 + player.heldItemSlot]
      const items = itemsDropped(registry, data.block.name, held?.type)
      data.drops.splice(0, data.drops.length, ...items.map((name) => dropped(registry, player, data.position, name)))
    })
  })
}

/** The items (one name per item) a block of `name` drops when dug with the item `heldType`. */
function itemsDropped (registry, name, heldType) {
  const tools = registry.blocksByName[name]?.harvestTools
  if (tools && !(heldType !== undefined && tools[heldType])) return []
  if (name.endsWith('_leaves')) return fromLeaves(registry, name)
  if (name === 'gravel') return [Math.random() < FLINT_CHANCE ? 'flint' : 'gravel']
  return registry.blockLoot[name].drops
    .filter((drop) => !drop.silkTouch && (drop.noSilkTouch || Math.random() < (drop.dropChance ?? 1)))
    .flatMap((drop) => Array(count(COUNTS[drop.item] ?? drop.stackSizeRange ?? [1, 1])).fill(drop.item))
}

function fromLeaves (registry, name) {
  const kinds = LEAVES.map(([item, ...rest]) => [item === 'sapling' ? name.replace('_leaves', '_sapling') : item, ...rest])
  if (APPLE_LEAVES.has(name)) kinds.push(['apple', APPLE_CHANCE, 1, 1])
  return kinds.filter(([item, chance]) => registry.itemsByName[item] && Math.random() < chance)
    .flatMap(([item, , least, most]) => Array(count([least, most])).fill(item))
}

function count ([least, most]) {
  return least + Math.floor(Math.random() * (most - least + 1))
}

/** One item as a drop entity: one each, because a pickup counts every entity as one item. */
function dropped (registry, player, position, name) {
  return {
    blockDropPosition: position.offset(0.5, 0.5, 0.5),
    blockDropWorld: player.world,
    blockDropVelocity: new Vec3(Math.random() * 4 - 2, Math.random() * 2 + 2, Math.random() * 4 - 2),
    blockDropId: registry.itemsByName[name].id,
    blockDropCount: 1,
    blockDropPickup: PICKUP_MS,
    blockDropDeath: DESPAWN_MS
  }
}

module.exports = { install, itemsDropped }
