'use strict'
// Building a small blueprint from the inventory: world cells, each with the block it must hold,
// placed bottom up (a cell needs something solid beside or below it to be placed against), each
// after a walk to where it can be placed, and each read back. A pass that places nothing ends
// the building; what is left is reported as missing (nothing to place it with, or nothing to
// place it against) or wrong (another block is there). Positions are world blocks.
const { Vec3 } = require('vec3')
const { goals } = require('mineflayer-pathfinder')
const { HelperError, required } = require('./errors')
const { place } = require('./place')
const { walk, left } = require('./approach')
const { haltWatch } = require('./stepwise')

// Where the bot may stand to place: within this reach of the cell, never in it.
const PLACE_RANGE = 4

/** @param {{cells: {x: number, y: number, z: number, block: string}[], timeout_s?: number}} args */
async function build (bot, args) {
  const { cells, timeout_s: timeoutS } = required(args, 'cells', 'timeout_s')
  const deadline = Date.now() + timeoutS * 1000
  const todo = cells.map((c) => ({ ...c, pos: new Vec3(c.x, c.y, c.z) })).sort((a, b) => a.y - b.y)
  const placed = []
  const problems = new Map() // cell key -> why it is not placed (the latest reason)
  let stop = 'completed'
  const halted = haltWatch(bot)
  try {
    for (let progress = true; progress;) {
      progress = false
      for (const cell of todo.filter((c) => !isRight(bot, c))) {
        halted()
        const why = await placeOne(bot, cell, deadline)
        if (why) {
          problems.set(cell.pos.toString(), why)
        } else {
          placed.push({ x: cell.x, y: cell.y, z: cell.z, block: cell.block })
          problems.delete(cell.pos.toString())
          progress = true
        }
      }
    }
  } catch (err) {
    if (err.reason === 'stopped') stop = 'stopped'
    else if (err.code === 'timeout') stop = 'timeout'
    else throw err
  }
  return report(bot, todo, placed, problems, stop)
}

function isRight (bot, cell) {
  return bot.blockAt(cell.pos, false)?.name === cell.block
}

/** Places one cell after walking to where it can be placed; returns why not, or null when placed. */
async function placeOne (bot, cell, deadline) {
  if (!bot.inventory.items().some((i) => i.name === cell.block)) return `no ${cell.block} in the inventory`
  const here = bot.blockAt(cell.pos, false)
  if (here && here.boundingBox !== 'empty') return `taken by ${here.name}`
  try {
    await walk(bot, new goals.GoalPlaceBlock(cell.pos, bot.world, { range: PLACE_RANGE }), deadline, `walking to place ${cell.block}`)
  } catch (err) {
    if (err.code === 'timeout') throw err
    return `no place to stand and place it from (${err.message})`
  }
  left(deadline)
  try {
    const done = await place(bot, { item: cell.block, x: cell.x, y: cell.y, z: cell.z })
    return done.placed ? null : `placed, but ${done.now} is there`
  } catch (err) {
    if (err instanceof HelperError) return err.message
    throw err
  }
}

/** The blueprint as the world reads it now. */
function report (bot, todo, placed, problems, stop) {
  const missing = []
  const wrong = []
  for (const cell of todo) {
    const now = bot.blockAt(cell.pos, false)?.name ?? null
    if (now === cell.block) continue
    const entry = { x: cell.x, y: cell.y, z: cell.z, block: cell.block, now, reason: problems.get(cell.pos.toString()) ?? 'not tried' }
    if (now === null || now === 'air' || bot.blockAt(cell.pos, false).boundingBox === 'empty') missing.push(entry)
    else wrong.push(entry)
  }
  const right = todo.length - missing.length - wrong.length
  return { cells: todo.length, right, share: Math.round(1000 * right / todo.length) / 1000, placed, missing, wrong, stop_reason: stop }
}

module.exports = { build }
