'use strict'
// Collecting blocks of a kind: for each, the nearest one a walk can reach to within digging
// range is walked to (pathfinder, no digging or building on the way; when all are buried, a way
// dug to the nearest, burrow.js; when the ones near are too high, from a pillar taken down
// after, stand-under.js), dug as digging.js digs
// (the fastest tool carried in hand, never letting in lava or water), and its drop walked onto
// until the inventory shows it. The inventory is counted before and after: what was gained is
// what the world gave, not what was dug. Positions are world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { Vec3 } = require('vec3')
const { frameOf } = require('./frame')
const { clear, toolLacking, toolsSaid } = require('./digging')
const { runSteps, Stop } = require('./stepwise')
const { settle } = require('./steering')
const { walkToNearest, walk, kindOf, left } = require('./approach')
const { carried, counts } = require('./inventory')
const { overhead, climbUnder, takeDown } = require('./stand-under')
const { required } = require('./errors')
const { pickUpLying, nearestDrop } = require('./pickup')

// A drop appears within a tick or two of the dig and flies up to ~2 blocks off (flying-squid: a
// random speed); it is handed over half a second after it appears, within 1.75 blocks of the feet.
// A block the game says always drops (a log, stone) is waited on longer: on a loaded machine the
// server's entity spawn came after a second, and the log was left on the ground as "nothing dropped".
const DROP_APPEARS_MS = 1000
const DROP_PROMISED_MS = 5000
const PICKUP_TRIES = 3
// The game's reach from the eyes in survival, and the eyes' height above the feet (blocks).
const REACH = 4.5
const EYES = 1.62

/**
 * @param {{block: string, count?: number, radius?: number, timeout_s?: number, avoid?: number[][]}} args
 * `avoid`: world cells never dug (a build's own blocks, when collecting more of its kind).
 */
async function collect (bot, args) {
  const { block, count, radius, timeout_s: timeoutS, avoid } = required(args, 'block', 'count', 'radius', 'timeout_s', 'avoid')
  const kind = sourceOf(bot, block)
  const lacking = toolLacking(bot, kind)
  if (lacking) return needsTool(block, count, lacking)
  const deadline = Date.now() + timeoutS * 1000
  const before = counts(bot)
  const unreachable = new Set(avoid.map(([x, y, z]) => new Vec3(x, y, z).toString())) // walkToNearest skips these
  const dug = []
  let onTheWay = 0
  const run = await runSteps(bot, count, async () => {
    const reached = await reachOne(bot, kind, radius, unreachable, deadline, avoid.length === 0)
    onTheWay += reached.dug.length
    await settle(bot) // a walk can end mid-step on a slope: digging in the air is 5 times slower
    const got = await clear(bot, frameOf(bot), reached.cell)
    dug.push(got)
    if (reached.pillar) await takeDown(bot, reached.pillar)
    await pickUp(bot, reached.cell, deadline, got.block, avoid.length === 0)
  })
  return { block, asked: count, blocks_dug: dug.length, dug, dug_on_the_way: onTheWay, gained: gained(before, counts(bot)), ...run }
}

/**
 * Into digging reach of the nearest block of `kind` a walk reaches; when all are buried, by a way
 * dug to the nearest (burrow.js); when the ones a walk comes near are too high (a trunk's top),
 * from a pillar built under one (stand-under.js), which the caller takes down after. A build's
 * own blocks (`free` false) are never dug, so no way is dug or built near them either.
 * @returns {{cell, dug, pillar?}} `pillar`: where the pillar stands and how high (stand-under.js)
 */
async function reachOne (bot, kind, radius, unreachable, deadline, free) {
  try {
    return await walkToNearest(bot, kind, radius, (c) => new InReach(c, bot.world), unreachable, deadline, free)
  } catch (err) {
    const under = free && err instanceof Stop && err.reason === 'unreachable' ? overhead(bot, err.cells ?? []) : null
    if (!under) throw err
    await climbUnder(bot, under, walk, deadline)
    return { cell: under.cell, dug: [], pillar: under }
  }
}

/**
 * In digging reach of the block at `cell`, a face of it in sight, and not standing on it: a block
 * dug from above drops the bot into its hole, and stone dug so, one under the other, made a shaft
 * no walk climbed out of. mineflayer-pathfinder 2.4.5's GoalLookAtBlock measures its reach from
 * the feet to a point 1.6 above the block, so a block 3 or more above the feet was never in reach
 * (a trunk's fourth log); the reach is measured here from the eyes, and the library's test, its
 * own reach widened past ours, kept for the face in sight.
 */
class InReach extends goals.GoalLookAtBlock {
  constructor (cell, world) {
    super(cell, world, { reach: REACH + 2 * EYES + 1 })
  }

  isEnd (node) {
    const onIt = node.x === this.pos.x && node.z === this.pos.z && node.y === this.pos.y + 1
    return !onIt && node.offset(0.5, EYES, 0.5).distanceTo(this.pos.offset(0.5, 0.5, 0.5)) <= REACH && super.isEnd(node)
  }
}

/**
 * What to dig for `name`: the blocks of that name and those that drop the item of that name
 * (cobblestone: stone too; dirt: grass_block too, where the dirt is buried), the nearest a walk
 * reaches first. As walkToNearest takes a kind: `id` a block id or a list of them, `name` for
 * its messages.
 */
function sourceOf (bot, name) {
  const exact = bot.registry.blocksByName[name]
  const item = bot.registry.itemsByName[name]
  const droppers = item ? bot.registry.blocksArray.filter((b) => b !== exact && b.drops?.some((d) => (d?.drop ?? d) === item.id)) : []
  if (droppers.length === 0) return exact ?? kindOf(bot, name) // bad_args when neither a block nor an item
  const kinds = exact ? [exact, ...droppers] : droppers
  return { id: kinds.map((b) => b.id), name: `${kinds.map((b) => b.name).slice(0, 3).join(' or ')} (for ${name})` }
}

/** The report of a collecting that cannot start: nothing dug, and the cheapest tool as missing. */
function needsTool (block, count, tools) {
  const detail = `${block} drops nothing dug without ${toolsSaid(tools)}; the bot carries none`
  return { block, asked: count, blocks_dug: 0, dug: [], gained: {}, steps: 0, stop_reason: 'needs_tool', detail, missing: [{ name: tools[0], count: 1 }] }
}

/**
 * Walks onto the drop of the block dug at `cell` until the inventory holds more than before
 * (pickup.js). With `free` (no build's blocks to spare), a try after the first at a drop above
 * the feet may dig and build its way: a log dug from a stair up out of the ground drops on the
 * grass two above the feet.
 */
async function pickUp (bot, cell, deadline, name, free) {
  const had = carried(bot)
  await pickUpLying(bot, {
    find: () => nearestDrop(bot, cell),
    done: () => carried(bot) > had,
    walkTo: (goal, attempt) => walk(bot, goal, deadline, `walking onto the dropped ${name}`,
      free && attempt > 0 && goal.y > bot.entity.position.y ? { allow_dig: true, allow_build: true } : {}),
    tries: PICKUP_TRIES,
    deadline,
    appearsMs: bot.registry.blocksByName[name]?.drops?.length ? DROP_PROMISED_MS : DROP_APPEARS_MS
  })
}

/** {name: more now than before}, for the names that grew. */
function gained (before, after) {
  return Object.fromEntries(Object.entries(after).filter(([name, n]) => n > (before[name] ?? 0))
    .map(([name, n]) => [name, n - (before[name] ?? 0)]))
}

module.exports = { collect }
