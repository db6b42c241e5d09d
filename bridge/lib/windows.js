'use strict'
// Windows, and the clicks made in them, on flying-squid 1.12.0.
//
// flying-squid applies every window_click to the player's own inventory (plugins/inventory.js),
// whichever window it was made in, and drops shift-clicks, drags and double-clicks before they
// get there; from 1.17 the packet no longer carries the clicked slot's item, which
// prismarine-windows' acceptClick reads; up to 1.16 a client waits for the server to accept
// each click (a transaction packet) and flying-squid sends none; and a client that asks for the
// whole window again (a click with stateId -1, as Mineflayer's _syncWindow does) is not
// answered. Here every click goes to the window it was made in, with the slot's item, is
// applied and answered, and the window's owner (a chest, a crafting table, a furnace:
// containers.js, crafting.js, furnaces.js) hears of it; flying-squid's own call does nothing.
// Written as a flying-squid plugin so it could be offered upstream.
//
// A window's slots: the owner's own first, then the player's main inventory and hotbar (as
// vanilla lays them out); the player's part is copied back into their inventory after a click.
const { Vec3 } = require('vec3')

// Window ids 1..100; 0 is the player's inventory (vanilla wraps at 100 too).
const MAX_WINDOW_ID = 100
// The player's inventory (window 0) puts the main inventory and hotbar at 9..44.
const OWN_INVENTORY_START = 9
// The slot a click outside the window names.
const OUTSIDE = -999
// A drop at the feet (an inventory with no room) waits this long before anyone picks it up.
const DROPPED_PICKUP_MS = 1000

/** Call straight after createMCServer, before the plugins that open windows. */
function install (serv) {
  const Item = require('prismarine-item')(serv.registry)
  const windows = require('prismarine-windows')(serv.registry)
  const stateIdUsed = serv.supportFeature('stateIdUsed')
  const windowClickHooks = [] // (player, click, ownClick) => true when it handled a click in window 0

  /**
   * Open a window of `type` ('minecraft:generic_9x3', ...) to `player`. `slots` are the
   * owner's own slots' items. `handleClick(window, click)` may apply a click itself (returning
   * true; a result slot's), `onClick(window, click)` hears of each click after it was applied,
   * `onClose(window)` of the window's closing. Returns the prismarine window.
   */
  serv.openWindow = (player, { type, title, slots, onClick, onClose, handleClick }) => {
    player.windowId = (player.windowId ?? 0) % MAX_WINDOW_ID + 1
    const window = windows.createWindow(player.windowId, type, title)
    slots.forEach((item, i) => window.updateSlot(i, item ?? null))
    for (let i = window.inventoryStart; i < window.inventoryEnd; i++) window.updateSlot(i, player.inventory.slots[ownSlot(window, i)])
    player.openedWindow = { window, onClick, onClose, handleClick }
    player._client.write('open_window', {
      windowId: window.id,
      inventoryType: windows.windows[type].type, // the protocol's number; window.type is its name
      windowTitle: serv._createChatComponent({ translate: title }).toNetworkFormat()
    })
    serv.sendWindow(player, window)
    return window
  }

  /** Every slot of `window` (0: the player's inventory) to its client. */
  serv.sendWindow = (player, window) => {
    player._client.write('window_items', {
      windowId: window === player.inventory ? 0 : window.id,
      stateId: 1,
      items: window.slots.map((i) => Item.toNotch(i)),
      carriedItem: Item.toNotch(window.selectedItem)
    })
  }

  /** One slot of `window` to its client, also when it did not change (a client may wait for it). */
  serv.sendSlot = (player, window, slot) => {
    player._client.write('set_slot', {
      windowId: window === player.inventory ? 0 : window.id,
      stateId: 1,
      slot,
      item: Item.toNotch(window.slots[slot])
    })
  }

  /** `item` into the player's inventory (onto stacks of it, then empty slots); what has no room drops at their feet. */
  serv.giveBack = (player, item) => {
    let left = item.count
    const inventory = player.inventory
    for (let slot = OWN_INVENTORY_START; slot < inventory.slots.length && left > 0; slot++) {
      const there = inventory.slots[slot]
      if (!there || !Item.equal(there, item, false) || there.count >= there.stackSize) continue
      const moved = Math.min(left, there.stackSize - there.count)
      inventory.updateSlot(slot, new Item(there.type, there.count + moved, there.metadata, there.nbt))
      left -= moved
    }
    while (left > 0) {
      const slot = inventory.firstEmptyInventorySlot()
      if (slot === null || slot === undefined) break
      const moved = Math.min(left, item.stackSize)
      inventory.updateSlot(slot, new Item(item.type, moved, item.metadata, item.nbt))
      left -= moved
    }
    if (left > 0) serv.dropItems(player, item, left, player.position.offset(0, 1, 0), new Vec3(0, 1, 0), DROPPED_PICKUP_MS)
  }

  /** Window 0's clicks go to `hook(player, click, ownClick)` first; it returns true when it handled the click. */
  serv.onOwnInventoryClick = (hook) => windowClickHooks.push(hook)

  /**
   * prismarine-windows' acceptClick, but with two clicks of the cursor done here: one that puts
   * one item into an empty slot sets the slot once, holding one (prismarine-windows sets it
   * holding none and then counts it up, and window 0 sends each set to the client, which then
   * believes the slot holds 0); one outside the window throws what it lets go of (all, or one
   * on a right-click; throwing.js), which prismarine-windows only takes off the cursor.
   */
  const accept = (player, window, click, acceptClick) => {
    const held = window.selectedItem
    if (click.mode !== 0 || !held || (click.slot !== OUTSIDE && (click.mouseButton !== 1 || click.item))) return acceptClick(click)
    const letGo = click.slot === OUTSIDE && click.mouseButton === 0 ? held.count : 1
    window.selectedItem = held.count > letGo ? new Item(held.type, held.count - letGo, held.metadata, held.nbt) : null
    if (click.slot === OUTSIDE) serv.throwItems(player, held, letGo)
    else window.updateSlot(click.slot, new Item(held.type, 1, held.metadata, held.nbt))
    return click.slot === OUTSIDE ? [] : [click.slot]
  }

  serv.on('newPlayer', (player) => {
    const inventoryClick = player.inventory.acceptClick.bind(player.inventory)
    const ownClick = (click) => accept(player, player.inventory, click, inventoryClick)
    player.inventory.acceptClick = () => {} // flying-squid's call, for the clicks it lets through
    player._client.on('window_click', (packet) => {
      const window = packet.windowId === 0 ? player.inventory : player.openedWindow?.window
      if (!window || (window !== player.inventory && window.id !== packet.windowId)) return
      // A click with an impossible stateId asks for the whole window (answered as vanilla does).
      if (stateIdUsed && packet.stateId === -1) return serv.sendWindow(player, window)
      // The packet does not carry the clicked slot's item from 1.17; prismarine-windows reads it from the click.
      const click = { ...packet, item: packet.slot >= 0 ? window.slots[packet.slot] ?? null : null }
      // Up to 1.16 a client applies its click when it is accepted: accepted first, then the slots
      // as the server has them, so the server's word comes last.
      if (serv.supportFeature('transactionPacketExists')) {
        player._client.write('transaction', { windowId: packet.windowId, action: packet.action, accepted: true })
      }
      try {
        if (window !== player.inventory) applyClick(player, click)
        else if (!windowClickHooks.some((hook) => hook(player, click, ownClick))) ownClick(click)
      } catch {
        serv.sendWindow(player, window) // a click prismarine-windows cannot apply: the window as it is
      }
    })
    player._client.on('close_window', () => close(player))
  })

  const applyClick = (player, click) => {
    const { window, onClick, handleClick } = player.openedWindow
    if (!handleClick?.(window, click)) accept(player, window, click, window.acceptClick.bind(window))
    for (let i = window.inventoryStart; i < window.inventoryEnd; i++) {
      const own = ownSlot(window, i)
      if (!Item.equal(player.inventory.slots[own], window.slots[i], true)) player.inventory.updateSlot(own, window.slots[i])
    }
    onClick?.(window, click)
  }

  // What the cursor holds when a window closes goes back into the inventory.
  const close = (player) => {
    const opened = player.openedWindow
    player.openedWindow = null
    for (const window of [opened?.window, player.inventory]) {
      const held = window?.selectedItem
      if (!held) continue
      window.selectedItem = null
      serv.giveBack(player, held)
    }
    opened?.onClose?.(opened.window)
  }
}

/** The player's inventory slot that slot `i` of `window` (in its player part) shows. */
function ownSlot (window, i) {
  return i - window.inventoryStart + OWN_INVENTORY_START
}

/**
 * What a block that held `items` adds to its drops when dug, as vanilla spills a chest or a
 * furnace: one entity per item, because a pickup (plugins/inventory.js collect) counts every
 * entity as one item. Push onto the 'dug' event's drops, which flying-squid drops after it.
 */
function spilled (player, position, items) {
  const drops = []
  for (const item of items) {
    for (let n = 0; item && n < item.count; n++) {
      drops.push({
        blockDropPosition: new Vec3(position.x + 0.5, position.y + 0.5, position.z + 0.5),
        blockDropWorld: player.world,
        blockDropVelocity: new Vec3(0, 1, 0),
        blockDropId: item.type,
        blockDropCount: 1,
        blockDropPickup: 500,
        blockDropDeath: 60 * 5 * 1000
      })
    }
  }
  return drops
}

module.exports = { install, spilled }
