'use strict'
// Going to a block of a kind: the nearest one a walk reaches (pathfinder, no digging or building
// on the way), tried nearest first among those with a face open to the air; when all are buried,
// a way dug to the nearest (burrow.js). `approach` ends beside it, or with `on_top` standing on
// one with room above it; collect.js walks to within digging reach of it instead. Positions are
// world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { HelperError, required } = require('./errors')
const { movementsFor } = require('./goto')
const { Stop } = require('./stepwise')
const { withTimeout, waitFor } = require('./waiting')
const { vec } = require('./state')
const { tidy } = require('./numbers')
const { burrowTo } = require('./burrow')
const { reader } = require('./blocks')
const { feetBlock, underFeet } = require('./frame')
const { roomAbove, FLUIDS } = require('./room')
const { topOf } = require('./joined')

// Candidates looked at, the nearest first; those a walk cannot reach are not tried again in the
// same call.
const CANDIDATES = 128
// A path search: at most this long for one goal (find.js), or for any of the candidates, and
// no farther from the bot than the radius looked in and a margin.
const SEARCH_MS = 200
const ANY_SEARCH_MS = 1500
const SEARCH_MARGIN = 4
// A candidate has a face on one of these cells open (a buried block is for digging, not walking to).
const FACES = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]
// A walk onto a block may end mid-jump: the landing is waited for this long (ms) before the feet are read.
const LANDING_MS = 1000
// Under the ground: the ground's level around, read on the columns RING off, SUNK or more above
// the feet (a quarry, a stair down), looked for up to RISE above and below them.
const RING = 5
const SUNK = 2
const RISE = 16

/** The block kind named, or bad_args. */
function kindOf (bot, name) {
  const kind = bot.registry.blocksByName[name]
  if (!kind) throw new HelperError('bad_args', `unknown block '${name}'`)
  return kind
}

/** Milliseconds left before `deadline`; a timeout when none are. */
function left (deadline) {
  const ms = deadline - Date.now()
  if (ms <= 0) throw new HelperError('timeout', 'the call ran out of time')
  return ms
}

/**
 * Whether a walk reaches `goal` without digging or building, searching no farther than
 * `searchRadius` from the bot for at most `ms`: true, false, or null when the search ran out of
 * time. A search that finds no way explores every cell it may: the radius bounds it. Making the
 * `movements` costs about a millisecond: a caller searching several goals makes them once.
 */
function walkable (bot, goal, searchRadius, ms = SEARCH_MS, movements = movementsFor(bot, {})) {
  let status = 'partial' // yielded after each tick's worth of work, until the search ends
  for (const { result } of bot.pathfinder.getPathFromTo(movements, bot.entity.position, goal, { timeout: ms, searchRadius })) {
    status = result.status
  }
  return status === 'success' ? true : status === 'noPath' ? false : null
}

/**
 * Walks to `goalFor(cell)` of the `kind` block a walk reaches at the least cost: one path search
 * to any of the nearest CANDIDATES open to the air (not a search for each in turn: in a natural
 * world the nearest are cave walls under the spawn), skipping the cells in `unreachable` and
 * adding them all when no walk reaches any. A walk starts only once a path is known, so the bot
 * never sets off towards a block walled in. When every one within the radius is buried and
 * `dig` is set, digs a way to the nearest instead (burrow.js). `open(bot, cell)` says which
 * blocks are candidates: by default those with a face open to the air.
 * @returns {{cell, dug}} the block's cell, and the blocks dug on the way
 */
async function walkToNearest (bot, kind, radius, goalFor, unreachable, deadline, dig = false, open = inOpenAir) {
  const cells = bot.findBlocks({ matching: kind.id, useExtraInfo: (block) => open(bot, block.position), maxDistance: radius, count: CANDIDATES })
    .filter((c) => !unreachable.has(c.toString()))
  if (cells.length === 0) {
    const buried = dig && unreachable.size === 0 ? nearest(bot, kind, radius) : null
    if (buried === null) throw new Stop('not_found', noneOpen(bot, kind, radius, unreachable))
    return { cell: buried, dug: await burrowTo(bot, buried, deadline, kind.name) }
  }
  const targets = cells.map(goalFor)
  const reached = cheapest(bot, targets, radius + SEARCH_MARGIN, Math.min(ANY_SEARCH_MS, left(deadline)))
  if (reached === null) {
    for (const c of cells) unreachable.add(c.toString())
    // Open to a cave no walk gets into, say: a way is dug to the nearest not above the feet (one
    // above is for a block to stand on, stand-under.js); from under the ground (where a way dug
    // down or a quarry left the bot and no walk back up is found), to the nearest above too.
    const low = sunk(bot)
    const below = dig ? closest(bot, cells.filter((c) => low || c.y <= bot.entity.position.y)) : null
    if (below !== null) return { cell: below, dug: await burrowTo(bot, below, deadline, kind.name) }
    const stop = new Stop('unreachable', `no walk reaches any of the ${cells.length} ${kind.name} open to the air within ${radius} blocks`)
    stop.cells = cells // for a caller that can reach them otherwise (stand-under.js); not part of a report
    throw stop
  }
  await walk(bot, targets[reached], deadline, `walking to the ${kind.name}`)
  return { cell: cells[reached], dug: [] }
}

/**
 * Whether the feet are under the ground: SUNK or more below the ground's level around (the
 * median top of the columns RING off, read up to RISE above the feet). Not a roof alone: under
 * a trunk's logs, its top is for a pillar (stand-under.js), not for stairs up.
 */
function sunk (bot) {
  const feet = feetBlock(bot)
  const at = reader(bot)
  const tops = []
  for (let dx = -RING; dx <= RING; dx++) {
    for (const dz of Math.abs(dx) === RING ? range(-RING, RING) : [-RING, RING]) {
      let y = feet.y + RISE
      while (y > feet.y - RISE && !at(feet.offset(dx, y - feet.y, dz)).opaque) y--
      tops.push(y + 1)
    }
  }
  tops.sort((a, b) => a - b)
  return tops[Math.floor(tops.length / 2)] >= feet.y + SUNK
}

function range (from, to) {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}

/** The block of `kind` within `radius` nearest the feet, buried or not; null when there is none. */
function nearest (bot, kind, radius) {
  return closest(bot, bot.findBlocks({ matching: kind.id, maxDistance: radius, count: CANDIDATES }))
}

/** The cell of `cells` nearest the feet; null when there is none. */
function closest (bot, cells) {
  const feet = bot.entity.position
  return cells.reduce((best, c) => best === null || feet.distanceTo(c) < feet.distanceTo(best) ? c : best, null)
}

/**
 * The index of the goal among `targets` a walk (no digging or building) reaches at the least
 * cost, searching no farther than `searchRadius` for at most `ms`; null when none is reached.
 */
function cheapest (bot, targets, searchRadius, ms) {
  let found = null
  const any = new AnyOf(targets)
  for (const { result } of bot.pathfinder.getPathFromTo(movementsFor(bot, {}), bot.entity.position, any, { timeout: ms, searchRadius })) {
    found = result
  }
  return found?.status === 'success' ? any.reached : null
}

/** Any of `goals`, remembering which one the search ended at (the path's points are moved onto
 * the blocks' tops afterwards, so they cannot tell). */
class AnyOf extends goals.GoalCompositeAny {
  isEnd (node) {
    const index = this.goals.findIndex((goal) => goal.isEnd(node))
    if (index >= 0) this.reached = index
    return index >= 0
  }
}

/** Whether the block at `pos` has a face on air (or a plant), not on a fluid: what a walk can come up to. */
function inOpenAir (bot, pos) {
  return FACES.some(([dx, dy, dz]) => {
    const next = bot.blockAt(pos.offset(dx, dy, dz), false)
    return next !== null && next.boundingBox === 'empty' && !FLUIDS.has(next.name)
  })
}

/**
 * Walks onto the `kind` block with room above it that a walk reaches at the least cost (the feet
 * into the cell above it: GoalBlock), never digging or building, then reads where the feet
 * ended: the pathfinder's end is its word, the block under the feet the world's.
 * @returns {{cell, dug: []}} the block stood on; throws a Stop when the bot is not on one
 */
async function standOn (bot, kind, radius, deadline) {
  const first = closest(bot, bot.findBlocks({ matching: kind.id, useExtraInfo: (b) => roomAbove(bot, b.position), maxDistance: radius, count: CANDIDATES }))
  const top = first === null ? null : topOf(bot, kind.name, first, roomAbove)
  const onTop = (b, pos) => roomAbove(b, pos) && (top === null || pos.y === top) // a platform's top, not its step
  try {
    await walkToNearest(bot, kind, radius, (c) => new goals.GoalBlock(c.x, c.y + 1, c.z), new Set(), deadline, false, onTop)
  } catch (err) {
    if (err.reason !== 'not_found') throw err
    throw new Stop('not_found', `no ${kind.name} with two free cells above it within ${radius} blocks`)
  }
  await waitFor(() => bot.entity.onGround, Math.min(LANDING_MS, left(deadline)))
  const cell = underFeet(bot)
  const under = bot.blockAt(cell, false)
  if (bot.entity.onGround && under?.type === kind.id && roomAbove(bot, cell)) return { cell, dug: [] }
  throw new Stop('stopped', `the walk ended off the ${kind.name}: ${under?.name ?? 'an unloaded cell'} under the feet`)
}

/** Why no candidate is left: none there, none a walk reached, or all buried. */
function noneOpen (bot, kind, radius, unreachable) {
  if (unreachable.size) return `no reachable ${kind.name} left within ${radius} blocks`
  const buried = bot.findBlocks({ matching: kind.id, maxDistance: radius, count: 1 }).length > 0
  return buried ? `no ${kind.name} open to the air within ${radius} blocks: those there are buried (dig down to them)`
    : `no ${kind.name} left within ${radius} blocks`
}

/**
 * Walks to `goal` with the pathfinder, without digging or building, until `deadline`. The
 * movements are set first: that also clears a stop the last walk's cleanup asked for, which
 * would otherwise end this walk before its first step.
 */
async function walk (bot, goal, deadline, what, ways = {}) {
  bot.pathfinder.setMovements(movementsFor(bot, ways))
  await withTimeout(bot.pathfinder.goto(goal), left(deadline), what, () => bot.pathfinder.stop())
}

/**
 * @param {{block: string, radius: number, dig: boolean, on_top: boolean, timeout_s: number}} args
 * `dig`: when every block of the kind within the radius is buried, dig a way to the nearest
 * (burrow.js); `on_top`: end standing on a block of the kind instead of beside one (no digging)
 */
async function approach (bot, args) {
  const { block, radius, dig, on_top: onTop, timeout_s: timeoutS } = required(args, 'block', 'radius', 'dig', 'on_top', 'timeout_s')
  const kind = kindOf(bot, block)
  const start = vec(bot.entity.position)
  const deadline = Date.now() + timeoutS * 1000
  let reached = null
  let stop = null
  try {
    reached = onTop ? await standOn(bot, kind, radius, deadline)
      : await walkToNearest(bot, kind, radius, (c) => new goals.GoalGetToBlock(c.x, c.y, c.z), new Set(), deadline, dig)
  } catch (err) {
    if (!(err instanceof Stop) && err.code !== 'timeout') throw err
    stop = { reason: err.reason ?? 'timeout', detail: err.message, ...err.extra }
  }
  const feet = bot.entity.position
  const cell = reached?.cell ?? null
  return {
    block,
    reached: cell !== null,
    on_top: onTop,
    stop_reason: stop?.reason ?? 'completed',
    detail: stop?.detail ?? (onTop ? `on the ${block}` : reached.dug.length ? `beside the ${block}, dug ${reached.dug.length} blocks to it` : `beside the ${block}`),
    position: cell && { x: cell.x, y: cell.y, z: cell.z },
    distance: cell && tidy(feet.distanceTo(cell.offset(0.5, 0.5, 0.5))),
    dug: reached?.dug ?? [],
    missing: stop?.missing ?? [],
    start,
    end: vec(feet)
  }
}

module.exports = { approach, walkToNearest, walk, walkable, kindOf, left, SEARCH_MARGIN }
