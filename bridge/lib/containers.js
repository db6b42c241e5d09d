'use strict'
// Chests that keep what is put in them, on flying-squid 1.12.0.
//
// flying-squid opens a chest's window with 27 empty slots and nothing else (plugins/chest.js:
// "Gathering of content (NOT IMPLEMENTED)"), and its window_click handler applies every click,
// whichever window it was made in, to the player's own inventory (plugins/inventory.js), so a
// click in a chest's window moved the player's items between the wrong slots. Here each chest
// keeps 27 slots by position, its window is a real one (chest slots, then the player's main
// inventory and hotbar, as vanilla's generic_9x3), and clicks in it move items between the two.
// Written as a flying-squid plugin so it could be offered upstream. Contents live in memory:
// a world saved to a folder keeps its chests' blocks, not what is in them.
//
// A judge's read: a client may ask what a chest holds, without opening it, on the plugin
// channel `mcagent:container` ({id, x, y, z} as JSON; the answer {id, items: [{name, count}]}).
// Goal checks use it (bridge/helpers/goal.js container_has); a player's tools open chests.
const { Vec3 } = require('vec3')

const CHANNEL = 'mcagent:container'

const CHEST_SLOTS = 27
const WINDOW_TYPE = 'minecraft:generic_9x3'
// The player's inventory (window 0) puts main slots 9..35 and the hotbar 36..44; a chest's
// window puts the same 36 slots at 27..62.
const INVENTORY_SHIFT = CHEST_SLOTS - 9

const keyOf = (pos) => `${pos.x},${pos.y},${pos.z}`

/** Call straight after createMCServer. */
function install (serv) {
  const Item = require('prismarine-item')(serv.registry)
  const windows = require('prismarine-windows')(serv.registry)
  const stored = new Map()

  const slotsAt = (pos) => {
    if (!stored.has(keyOf(pos))) stored.set(keyOf(pos), new Array(CHEST_SLOTS).fill(null))
    return stored.get(keyOf(pos))
  }

  /** Put stacks [{name, count}] into the chest at `pos`, from its first slot; throws on an unknown name. */
  serv.fillContainer = (pos, stacks) => {
    const slots = slotsAt(pos)
    let slot = 0
    for (const { name, count } of stacks) {
      const item = serv.registry.itemsByName[name]
      if (!item) throw new Error(`unknown item '${name}'`)
      for (let left = count; left > 0; left -= item.stackSize) {
        if (slot === CHEST_SLOTS) throw new Error(`a chest at ${keyOf(pos)} holds ${CHEST_SLOTS} stacks; more were given`)
        slots[slot++] = new Item(item.id, Math.min(left, item.stackSize))
      }
    }
  }

  /** What the chest at `pos` holds: [{name, count}] by slot, empty slots left out. */
  serv.containerContents = (pos) => slotsAt(pos).filter(Boolean).map((i) => ({ name: i.name, count: i.count }))

  const open = (player, pos) => {
    player.windowId = (player.windowId ?? 0) + 1
    const window = windows.createWindow(player.windowId, WINDOW_TYPE, 'Chest')
    const slots = slotsAt(pos)
    for (let i = 0; i < CHEST_SLOTS; i++) window.updateSlot(i, slots[i])
    for (let i = window.inventoryStart; i < window.inventoryEnd; i++) window.updateSlot(i, player.inventory.slots[i - INVENTORY_SHIFT])
    player.container = { window, pos }
    player.windowType = 'chest'
    player.windowPos = pos
    player._client.write('open_window', {
      windowId: window.id,
      inventoryType: windows.windows[WINDOW_TYPE].type, // the protocol's number; window.type is its name
      windowTitle: serv._createChatComponent({ translate: 'container.chest' }).toNetworkFormat()
    })
    player._client.write('window_items', {
      windowId: window.id,
      stateId: 1,
      items: window.slots.map((i) => Item.toNotch(i)),
      carriedItem: Item.toNotch(null)
    })
  }

  // After every click: the chest's slots to the store, the player's part to their inventory
  // (whose updateSlot tells the client, and the equipment it holds).
  const settle = (player) => {
    const { window, pos } = player.container
    const slots = slotsAt(pos)
    for (let i = 0; i < CHEST_SLOTS; i++) slots[i] = window.slots[i]
    for (let i = window.inventoryStart; i < window.inventoryEnd; i++) {
      const own = i - INVENTORY_SHIFT
      if (!Item.equal(player.inventory.slots[own], window.slots[i], true)) player.inventory.updateSlot(own, window.slots[i])
    }
  }

  // What the cursor still holds when the window closes goes back into the inventory.
  const close = (player) => {
    const { window } = player.container
    const held = window.selectedItem
    window.selectedItem = null
    const slot = held && player.inventory.firstEmptyInventorySlot()
    if (held && slot !== null && slot !== undefined) player.inventory.updateSlot(slot, held)
    player.container = null
  }

  // Replaces plugins/chest.js's handler, registered while the server was made (flying-squid
  // warns that one is registered twice).
  serv.onBlockInteraction('chest', ({ block, player }) => {
    if (player.crouching) return false
    open(player, block.position)
    return true
  })

  serv.on('newPlayer', (player) => {
    const ownClick = player.inventory.acceptClick.bind(player.inventory)
    player.inventory.acceptClick = (click) => {
      if (click.windowId === 0) return ownClick(click)
      if (!player.container || click.windowId !== player.container.window.id) return
      // The packet does not carry the clicked slot's item; prismarine-windows reads it from the click.
      const { window } = player.container
      window.acceptClick({ ...click, item: click.slot >= 0 ? window.slots[click.slot] : null })
      // Up to 1.16 a client waits for the server to accept each click in a container.
      if (serv.supportFeature('transactionPacketExists')) {
        player._client.write('transaction', { windowId: window.id, action: click.action, accepted: true })
      }
      settle(player)
    }
    player._client.on('close_window', () => { if (player.container) close(player) })
    player.once('spawned', () => answerQueries(serv, player))
  })

  // A chest dug spills what it held, as vanilla's does: its items join the block's drops (the
  // 'dug' event runs before flying-squid drops them), one entity per item because a pickup
  // (plugins/inventory.js collect) counts every entity as one item. The place is empty again.
  serv.on('newPlayer', (player) => {
    player.on('dug', ({ position, drops }) => {
      const key = keyOf(position)
      for (const item of stored.get(key) ?? []) {
        for (let n = 0; item && n < item.count; n++) drops.push(spilled(player, position, item))
      }
      stored.delete(key)
    })
  })
}

function answerQueries (serv, player) {
  player._client.registerChannel(CHANNEL, ['string', []])
  player._client.on(CHANNEL, (text) => {
    let query
    try { query = JSON.parse(text) } catch { return }
    const items = serv.containerContents(new Vec3(query.x, query.y, query.z))
    player._client.writeChannel(CHANNEL, JSON.stringify({ id: query.id, items }))
  })
}

function spilled (player, position, item) {
  return {
    blockDropPosition: new Vec3(position.x + 0.5, position.y + 0.5, position.z + 0.5),
    blockDropWorld: player.world,
    blockDropVelocity: new Vec3(0, 1, 0),
    blockDropId: item.type,
    blockDropCount: 1,
    blockDropPickup: 500,
    blockDropDeath: 60 * 5 * 1000
  }
}

module.exports = { install, CHANNEL }
