'use strict'
// A chest: walked to (the nearest one a walk reaches within the radius, as approach.js goes),
// opened, and items put in or taken out; then opened again to read back what it holds, so the
// report is what the server keeps, not what the bot meant to move. The inventory is counted
// before and after. Positions are world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { HelperError, required } = require('./errors')
const { Stop } = require('./stepwise')
const { withTimeout } = require('./waiting')
const { walkToNearest, kindOf, left } = require('./approach')
const { carried, itemKind } = require('./inventory')

// bridge/lib/containers.js answers on this channel what a chest holds, without opening it.
const CHANNEL = 'mcagent:container'
const QUERY_MS = 2000

/** @param {{action?: string, item?: string, count?: number, radius?: number, timeout_s?: number}} args */
async function chest (bot, args) {
  const { action, item = null, count = null, radius, timeout_s: timeoutS } = required(args, 'action', 'radius', 'timeout_s')
  const kind = action === 'list' ? null : itemKind(bot, item)
  const deadline = Date.now() + timeoutS * 1000
  const had = kind ? carried(bot, (i) => i.type === kind.id) : 0
  let cell = null
  let stop = null
  try {
    cell = (await walkToNearest(bot, kindOf(bot, 'chest'), radius, (c) => new goals.GoalGetToBlock(c.x, c.y, c.z), new Set(), deadline)).cell
    if (kind) stop = await move(bot, cell, action, kind, count, deadline)
  } catch (err) {
    if (!(err instanceof Stop) && err.code !== 'timeout') throw err
    stop = { reason: err.reason ?? 'timeout', detail: err.message }
  }
  const has = kind ? carried(bot, (i) => i.type === kind.id) : 0
  return {
    action,
    item,
    asked: count,
    moved: action === 'deposit' ? had - has : has - had,
    stop_reason: stop?.reason ?? 'completed',
    detail: stop?.detail ?? (cell ? `the chest at (${cell.x}, ${cell.y}, ${cell.z})` : ''),
    chest: cell && { x: cell.x, y: cell.y, z: cell.z },
    chest_items: cell ? await opened(bot, cell, deadline, listed) : [],
    inventory: listed(bot.inventory.items())
  }
}

/**
 * Puts in (deposit) or takes out (withdraw) `count` of `kind`, or all there is when count is
 * null. @returns a stop {reason, detail} when fewer were there than asked, else null
 */
async function move (bot, cell, action, kind, count, deadline) {
  return opened(bot, cell, deadline, async (items, window) => {
    const source = action === 'deposit' ? bot.inventory.items() : items
    const there = source.filter((i) => i.type === kind.id).reduce((n, i) => n + i.count, 0)
    const n = count === null ? there : Math.min(count, there)
    const from = action === 'deposit' ? 'the inventory' : 'the chest'
    if (n === 0) return { reason: 'not_found', detail: `no ${kind.name} in ${from}` }
    await withTimeout(window[action](kind.id, null, n), left(deadline), `${action}ing ${kind.name}`)
    return n < (count ?? 0) ? { reason: 'incomplete', detail: `only ${there} ${kind.name} in ${from}, ${count} asked` } : null
  })
}

/** Opens the chest at `cell`, hands its items and window to `use`, and closes it whatever happens. */
async function opened (bot, cell, deadline, use) {
  const block = bot.blockAt(cell)
  const window = await withTimeout(bot.openContainer(block), left(deadline), 'opening the chest')
  try {
    return await use(window.containerItems(), window)
  } finally {
    await window.close()
  }
}

/** Items summed by name: [{name, count}], in the order each name first comes. */
function listed (items) {
  const by = new Map()
  for (const i of items) by.set(i.name, (by.get(i.name) ?? 0) + i.count)
  return [...by].map(([name, count]) => ({ name, count }))
}

/**
 * What the chest at `cell` holds, [{name, count}], read from the server without opening it: only
 * mcagent's local server answers (bridge/lib/containers.js). A judge's read for goal checks.
 */
function chestContents (bot, cell) {
  if (!bot._mcagentContainers) {
    bot._client.registerChannel(CHANNEL, ['string', []])
    bot._mcagentContainers = { next: 0, waiting: new Map() }
    bot._client.on(CHANNEL, (text) => {
      const answer = JSON.parse(text)
      bot._mcagentContainers.waiting.get(answer.id)?.(answer.items)
    })
  }
  const { waiting } = bot._mcagentContainers
  const id = ++bot._mcagentContainers.next
  const answered = new Promise((resolve) => waiting.set(id, resolve))
  bot._client.writeChannel(CHANNEL, JSON.stringify({ id, x: cell.x, y: cell.y, z: cell.z }))
  return withTimeout(answered, QUERY_MS, 'reading a chest', () => waiting.delete(id)).catch(() => {
    throw new HelperError('unreadable', "the server does not say what chests hold (mcagent's local server does)")
  })
}

module.exports = { chest, chestContents, listed }
