'use strict'
// Furnaces on flying-squid 1.12.0, which has none: a placed furnace keeps an input, a fuel and
// an output slot by position, opens as vanilla's furnace window when used, and smelts on the
// server's clock whether its window is open or not: a fuel item burns for its ticks
// (smelting.json, read by smelting.js), an input turns into its output after 200 ticks (10 s) of burning, and an
// open window shows the flame and the arrow (craft_progress_bar, as Mineflayer's furnace reads
// them). Mineflayer's bot.openFurnace works against it unchanged. A furnace dug spills what it
// holds. Written as a flying-squid plugin so it could be offered upstream; contents live in
// memory, as chests' do (containers.js).
const { spilled } = require('./windows')
const { SMELT_TICKS, fuelTicks, productOf } = require('./smelting')

const INPUT = 0
const FUEL = 1
const OUTPUT = 2
const TICK_MS = 50
// Window properties, as vanilla numbers them.
const PROPERTY = { burnLeft: 0, burnTotal: 1, cooked: 2, cookTotal: 3 }

const keyOf = (pos) => `${pos.x},${pos.y},${pos.z}`

/** Call after windows.install. */
function install (serv) {
  const Item = require('prismarine-item')(serv.registry)
  const products = smeltingProducts(serv.registry)
  const furnaces = new Map() // "x,y,z" -> {slots, burnLeft, burnTotal, cooked, viewers}

  const furnaceAt = (pos) => {
    const key = keyOf(pos)
    if (!furnaces.has(key)) furnaces.set(key, { slots: [null, null, null], burnLeft: 0, burnTotal: 0, cooked: 0, viewers: new Map() })
    return furnaces.get(key)
  }

  /** The item `input` smelts into, if the output slot has room for it; else null. */
  const product = (furnace) => {
    const input = furnace.slots[INPUT]
    const made = input && products.get(input.type)
    const out = furnace.slots[OUTPUT]
    if (!made || (out && (out.type !== made || out.count >= out.stackSize))) return null
    return made
  }

  const take = (slots, i) => {
    const item = slots[i]
    slots[i] = item.count > 1 ? new Item(item.type, item.count - 1, item.metadata, item.nbt) : null
  }

  /**
   * One tick of one furnace, in the game's order: the fire burns down, a new fuel item is lit the
   * same tick the last one runs out (so no tick of a fuel is lost: two planks smelt three items),
   * then the input cooks while the fire burns. True when a slot changed.
   */
  const tick = (furnace) => {
    const made = product(furnace)
    let changed = false
    const fuel = furnace.slots[FUEL]
    if (furnace.burnLeft > 0) furnace.burnLeft--
    if (furnace.burnLeft === 0 && made !== null && fuel && fuelTicks(fuel.name) > 0) {
      furnace.burnLeft = furnace.burnTotal = fuelTicks(fuel.name)
      take(furnace.slots, FUEL)
      changed = true
    }
    if (furnace.burnLeft > 0 && made !== null) furnace.cooked++
    else furnace.cooked = 0
    if (furnace.cooked >= SMELT_TICKS) {
      furnace.cooked = 0
      take(furnace.slots, INPUT)
      const out = furnace.slots[OUTPUT]
      furnace.slots[OUTPUT] = new Item(made, (out?.count ?? 0) + 1)
      changed = true
    }
    return changed
  }

  const show = (furnace, slotsChanged) => {
    for (const [player, window] of furnace.viewers) {
      if (slotsChanged) {
        furnace.slots.forEach((item, i) => window.updateSlot(i, item))
        for (const i of [INPUT, FUEL, OUTPUT]) serv.sendSlot(player, window, i)
      }
      const values = { burnLeft: furnace.burnLeft, burnTotal: furnace.burnTotal, cooked: furnace.cooked, cookTotal: SMELT_TICKS }
      for (const [name, property] of Object.entries(PROPERTY)) {
        player._client.write('craft_progress_bar', { windowId: window.id, property, value: values[name] })
      }
    }
  }

  const clock = setInterval(() => {
    for (const furnace of furnaces.values()) {
      if (furnace.burnLeft === 0 && product(furnace) === null) continue
      show(furnace, tick(furnace))
    }
  }, TICK_MS)
  clock.unref()

  const open = (player, pos) => {
    const furnace = furnaceAt(pos)
    const window = serv.openWindow(player, {
      type: 'minecraft:furnace',
      title: 'container.furnace',
      slots: furnace.slots,
      onClick: (w) => { for (const i of [INPUT, FUEL, OUTPUT]) furnace.slots[i] = w.slots[i] },
      onClose: () => furnace.viewers.delete(player)
    })
    furnace.viewers.set(player, window)
    show(furnace, false)
  }

  serv.onBlockInteraction('furnace', ({ block, player }) => {
    if (player.crouching) return false
    open(player, block.position)
    return true
  })

  serv.on('newPlayer', (player) => {
    player.on('dug', ({ position, drops }) => {
      const furnace = furnaces.get(keyOf(position))
      if (!furnace) return
      drops.push(...spilled(player, position, furnace.slots))
      furnaces.delete(keyOf(position))
    })
    player._client.on('end', () => { for (const furnace of furnaces.values()) furnace.viewers.delete(player) })
  })
}

/** Item id -> the item id it smelts into, for the names this version knows. */
function smeltingProducts (registry) {
  const products = new Map()
  for (const from of registry.itemsArray) {
    const to = registry.itemsByName[productOf(from.name)]
    if (to) products.set(from.id, to.id)
  }
  return products
}

module.exports = { install }
