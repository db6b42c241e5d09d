'use strict'
// Crafting on flying-squid 1.12.0, which computes no crafting result (its issues "Support
// crafting" and "Crafting tables and furnaces" are open): the 2x2 grid of the player's
// inventory and the 3x3 window of a crafting table (opened by using the block). The result slot
// is computed on every click from minecraft-data's recipes for the served version (shaped, also
// mirrored, and shapeless); taking the result (a click, or a shift-click that crafts while the
// grid and the inventory allow) consumes one of each ingredient; what is left in a table's grid
// goes back to the inventory when its window closes, the 2x2 grid's when the inventory screen
// does. Mineflayer's bot.craft works against it unchanged. Written as a flying-squid plugin so
// it could be offered upstream.
//
// Left out: recipes whose ingredients leave something behind (a milk bucket's bucket), and the
// recipe book.
const RESULT_SLOT = 0
// Shift-clicking a result crafts at most a stack's worth of times, as vanilla.
const MAX_REPEATS = 64

/** Call after windows.install. */
function install (serv) {
  const Item = require('prismarine-item')(serv.registry)
  const book = recipeBook(serv.registry)

  /** The result `grid` (width × width items) makes, or null. */
  const resultOf = (grid, width) => {
    const found = book.match(grid, width)
    return found && new Item(found.id, found.count)
  }

  // A grid's slots are 1..width², row by row, in both windows.
  const gridOf = (window, width) => window.slots.slice(1, 1 + width * width)

  // Once per click: Mineflayer waits for one update of the result slot after a click in the
  // grid, and a second one (window 0's updateSlot already sends it) lets its next click race ahead.
  const refresh = (player, window, width) => {
    window.updateSlot(RESULT_SLOT, resultOf(gridOf(window, width), width))
    if (window !== player.inventory) serv.sendSlot(player, window, RESULT_SLOT)
  }

  const consume = (player, window, width) => {
    for (let slot = 1; slot <= width * width; slot++) {
      const item = window.slots[slot]
      if (!item) continue
      window.updateSlot(slot, item.count > 1 ? new Item(item.type, item.count - 1, item.metadata, item.nbt) : null)
      if (window !== player.inventory) serv.sendSlot(player, window, slot)
    }
  }

  /** A click on the result slot: into the cursor (a click) or the inventory (a shift-click). */
  const takeResult = (player, window, width, click) => {
    if (click.mode === 1) {
      for (let n = 0; n < MAX_REPEATS; n++) {
        const result = resultOf(gridOf(window, width), width)
        if (!result || !storeInInventory(window, result)) break
        consume(player, window, width)
      }
    } else if (click.mode === 0) {
      const result = window.slots[RESULT_SLOT]
      const held = window.selectedItem
      const fits = result && (!held || (Item.equal(held, result, false) && held.count + result.count <= held.stackSize))
      if (fits) {
        window.selectedItem = new Item(result.type, (held?.count ?? 0) + result.count, result.metadata, result.nbt)
        consume(player, window, width)
      }
    }
    refresh(player, window, width)
  }

  // The player's part of a window, onto stacks then empty slots; false (nothing moved) when it has no room.
  const storeInInventory = (window, item) => {
    const slots = []
    let left = item.count
    for (let i = window.inventoryStart; i < window.inventoryEnd && left > 0; i++) {
      const there = window.slots[i]
      const room = !there ? item.stackSize : Item.equal(there, item, false) ? there.stackSize - there.count : 0
      if (room > 0) slots.push([i, Math.min(room, left)])
      left -= Math.min(room, left)
    }
    if (left > 0) return false
    for (const [i, n] of slots) window.updateSlot(i, new Item(item.type, (window.slots[i]?.count ?? 0) + n, item.metadata, item.nbt))
    return true
  }

  // The 2x2 grid: window 0's slots 0 (result) and 1..4.
  serv.onOwnInventoryClick((player, click, ownClick) => {
    const inGrid = click.slot >= 0 && click.slot <= 4
    if (click.slot === RESULT_SLOT) takeResult(player, player.inventory, 2, click)
    else if (inGrid) {
      ownClick(click)
      refresh(player, player.inventory, 2)
    }
    return inGrid
  })

  const openTable = (player) => {
    const width = 3
    serv.openWindow(player, {
      type: 'minecraft:crafting',
      title: 'container.crafting',
      slots: new Array(1 + width * width).fill(null),
      handleClick: (window, click) => {
        if (click.slot === RESULT_SLOT) {
          takeResult(player, window, width, click)
          return true
        }
        // A shift-click from the inventory would land in the result slot; vanilla moves it within the inventory.
        return click.mode === 1 && click.slot >= window.inventoryStart
      },
      onClick: (window, click) => { if (click.slot > RESULT_SLOT && click.slot <= width * width) refresh(player, window, width) },
      onClose: (window) => { for (const item of gridOf(window, width)) if (item) serv.giveBack(player, item) }
    })
  }

  // What is left in the 2x2 grid goes back to the inventory when the inventory screen closes.
  serv.on('newPlayer', (player) => {
    player._client.on('close_window', ({ windowId }) => {
      if (windowId !== 0) return
      for (let slot = 1; slot <= 4; slot++) {
        const item = player.inventory.slots[slot]
        if (!item) continue
        player.inventory.updateSlot(slot, null)
        serv.giveBack(player, item)
      }
      refresh(player, player.inventory, 2)
    })
  })

  serv.onBlockInteraction('crafting_table', ({ player }) => {
    if (player.crouching) return false
    openTable(player)
    return true
  })
}

/**
 * minecraft-data's recipes, matched against a grid. Ingredients are item ids (or {id} before
 * 1.13); a shaped recipe matches its shape or its mirror anywhere in the grid, a shapeless one
 * the same items in any place.
 */
function recipeBook (registry) {
  const idOf = (x) => (x === null || x === undefined ? null : typeof x === 'object' ? (x.id === -1 ? null : x.id) : x)
  const shaped = []
  const shapeless = []
  for (const variants of Object.values(registry.recipes)) {
    for (const recipe of variants) {
      const result = { id: idOf(recipe.result.id ?? recipe.result), count: recipe.result.count ?? 1 }
      if (recipe.inShape) shaped.push({ rows: trimmed(recipe.inShape.map((row) => row.map(idOf))), result })
      else if (recipe.ingredients) shapeless.push({ key: recipe.ingredients.map(idOf).sort((a, b) => a - b).join(','), result })
    }
  }
  return {
    match (grid, width) {
      const ids = grid.map((item) => item?.type ?? null)
      const rows = trimmed([...Array(width).keys()].map((y) => ids.slice(y * width, (y + 1) * width)))
      if (!rows) return null
      const key = rows.flat().filter((id) => id !== null).sort((a, b) => a - b).join(',')
      const mirrored = rows.map((row) => [...row].reverse())
      return shaped.find((r) => sameRows(r.rows, rows) || sameRows(r.rows, mirrored))?.result ??
        shapeless.find((r) => r.key === key)?.result ?? null
    }
  }
}

/** Rows of ids cut to the rows and columns that hold something; null when all are empty. */
function trimmed (rows) {
  const width = Math.max(...rows.map((row) => row.length))
  const used = (line) => line.some((id) => id !== null && id !== undefined)
  const ys = rows.map((row, y) => (used(row) ? y : -1)).filter((y) => y >= 0)
  const xs = [...Array(width).keys()].filter((x) => used(rows.map((row) => row[x])))
  if (!ys.length) return null
  const cut = (row) => [...Array(xs[xs.length - 1] - xs[0] + 1).keys()].map((i) => row[xs[0] + i] ?? null)
  return rows.slice(ys[0], ys[ys.length - 1] + 1).map(cut)
}

function sameRows (a, b) {
  return a.length === b.length && a.every((row, y) => row.length === b[y].length && row.every((id, x) => id === b[y][x]))
}

module.exports = { install, recipeBook }
