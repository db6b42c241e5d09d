'use strict'
// mc-move: holding keys for a duration, or a grid step of whole blocks. Distances in blocks.
// Movement reports what happened, never what was asked: start, end, displacement, and
// why it stopped (completed, collision, fell, timeout, disconnected; a grid step also
// drop_ahead and hazard_ahead, when it stopped before what it read in the blocks ahead).
const { required } = require('./errors')
const { sleep } = require('./waiting')
const { yawFromDeg, yawOfFacing, orientation } = require('./angles')
const { frameOf } = require('./frame')
const { reader, openBelow, stepUpAt, SAFE_DROP } = require('./blocks')
const { vec } = require('./state')
const { settle, routeOf, steer } = require('./steering')

// Blocked this many physics ticks in a row (50 ms each) while pushing: a collision.
const COLLISION_TICKS = 3
// Dropping more than this below the start (a grid step: below its lowest planned block) is a
// fall; stepping down one block while holding keys is walking.
const FALL_THRESHOLD = 1.5
// Walking speed on flat ground is ~4.3 blocks/s; a grid step gets this much slack per block, plus a second.
const GRID_STEP_S_PER_BLOCK = 0.5
// ...and this much more for each climb or drop on the way (the jump; creeping to an edge and falling).
const GRID_LEVEL_S = 1
// How long a move waits for the bot to land and stop gliding before reporting.
const LANDING_WAIT_MS = 3000

/** Watches a move tick by tick: collision, fall (below `lowestY`), disconnect. */
function watchMove (bot, pushing, lowestY = bot.entity.position.y) {
  const start = bot.entity.position.clone()
  const w = { start, stop: null, blockedTicks: 0, peakY: start.y, fall: 0, ended: false }
  const onEnd = () => { w.ended = true; w.stop = 'disconnected' }
  const onTick = () => {
    const p = bot.entity.position
    w.peakY = Math.max(w.peakY, p.y)
    w.fall = Math.max(w.fall, w.peakY - p.y)
    w.blockedTicks = pushing() && bot.entity.isCollidedHorizontally ? w.blockedTicks + 1 : 0
    if (!w.stop && w.blockedTicks >= COLLISION_TICKS) w.stop = 'collision'
    if (!w.stop && lowestY - p.y > FALL_THRESHOLD) w.stop = 'fell'
  }
  bot.on('physicsTick', onTick)
  bot.once('end', onEnd)
  w.dispose = () => {
    bot.removeListener('physicsTick', onTick)
    bot.removeListener('end', onEnd)
  }
  return w
}

function report (bot, w, stop) {
  const end = bot.entity.position
  const moved = end.minus(w.start)
  return {
    start: vec(w.start),
    end: vec(end),
    displacement: vec(moved),
    // Horizontal blocks, start to end: what mc-move's complete_when holds against the blocks asked.
    moved: Math.round(Math.hypot(moved.x, moved.z) * 1000) / 1000,
    stop_reason: stop,
    fall_distance: w.fall,
    ...orientation(bot)
  }
}

/** Holds controls (mineflayer's: forward, back, left, right, jump, sprint, sneak) for `seconds`; stops early on collision, fall or disconnect. */
async function hold (bot, args) {
  const { controls, seconds } = required(args, 'controls', 'seconds')
  const horizontal = controls.some((c) => ['forward', 'back', 'left', 'right'].includes(c))
  const w = watchMove(bot, () => horizontal)
  try {
    for (const c of controls) bot.setControlState(c, true)
    const until = Date.now() + seconds * 1000
    try {
      while (!w.stop && Date.now() < until) await sleep(Math.min(50, until - Date.now()))
    } finally {
      if (!w.ended) bot.clearControlStates()
    }
    await settle(bot, LANDING_WAIT_MS, () => w.ended)
    return report(bot, w, w.stop ?? 'completed')
  } finally {
    w.dispose()
  }
}

/**
 * Walks `blocks` whole blocks along the facing (snapped to its cardinal) and stops at that
 * block's centre. It reads the blocks ahead first: it climbs one-block steps, walks down drops
 * of up to `max_drop` blocks, and stops on the last safe block before a deeper drop, a hazard
 * (lava, fire, water over the head, cactus) or a wall.
 */
async function step (bot, args) {
  const { blocks, max_drop: maxDrop = SAFE_DROP } = required(args, 'blocks')
  const frame = frameOf(bot)
  const at = reader(bot)
  const plan = planWalk((forward, right, up) => at(frame.toWorld(forward, right, up)), blocks, maxDrop)
  const route = routeOf(frame, plan.levels)
  await bot.look(yawFromDeg(yawOfFacing(frame.facing)), bot.entity.pitch, true)
  // pushing against the face of a step while jumping up it is climbing, not a collision
  const pushing = () => bot.controlState.forward && bot.entity.onGround && !bot.controlState.jump
  const w = watchMove(bot, pushing, frame.feet.y + Math.min(...plan.levels))
  const climbsAndDrops = plan.levels.filter((level, k) => k > 0 && level !== plan.levels[k - 1]).length
  const until = Date.now() + (1 + blocks * GRID_STEP_S_PER_BLOCK + climbsAndDrops * GRID_LEVEL_S) * 1000
  try {
    try {
      const outcome = await steer(bot, route, until, () => w.stop !== null)
      if (outcome === 'timeout') w.stop = 'timeout'
    } finally {
      if (!w.ended) bot.clearControlStates()
    }
    await settle(bot, LANDING_WAIT_MS, () => w.ended)
    if (!w.ended) await bot.look(yawFromDeg(yawOfFacing(frame.facing)), bot.entity.pitch, true)
  } finally {
    w.dispose()
  }
  const planned = w.stop ? null : plan.stop // a stop in the walk itself is what happened
  return {
    ...report(bot, w, w.stop ?? planned?.reason ?? 'completed'),
    target: vec(route.target),
    block: planned?.block ?? null,
    distance: planned?.distance ?? null,
    depth: planned?.depth ?? null
  }
}

/**
 * The walk read from the blocks before moving. `cell(forward, right, up)` gives block info in
 * the frame. Returns the feet level (blocks up from the start) in each block 0..n the bot can
 * walk to, and why it ends early: {reason, block, distance[, depth]}, or null if it does not.
 */
function planWalk (cell, blocks, maxDrop) {
  const levels = [0]
  for (let forward = 1; forward <= blocks; forward++) {
    const next = enter(cell, forward, levels[forward - 1], maxDrop)
    if (next.stop) return { levels, stop: { ...next.stop, distance: forward } }
    levels.push(next.level)
  }
  return { levels, stop: null }
}

/** Stepping into block `forward` from feet level `up`: the feet level it ends at there, or why not. */
function enter (cell, forward, up, maxDrop) {
  const at = (u) => cell(forward, 0, u)
  let feet = up
  if (stepUpAt(cell, forward, up)) {
    feet = up + 1
  } else if (!at(up).passable || !at(up + 1).passable) {
    const wall = at(up).passable ? at(up + 1) : at(up)
    return { stop: wall.hazard ? hazardStop(wall) : { reason: 'collision', block: wall.name } }
  }
  const depth = openBelow(cell, forward, 0, feet)
  const landing = feet - depth
  // what the body passes through on the way down, and what it lands on
  for (let u = landing - 1; u <= feet + 1; u++) {
    if (at(u).hazard && at(u).hazard !== 'water') return { stop: hazardStop(at(u)) }
  }
  if (at(landing).hazard === 'water' && at(landing + 1).hazard === 'water') return { stop: hazardStop(at(landing + 1)) }
  if (depth > maxDrop) return { stop: { reason: 'drop_ahead', block: null, depth } }
  return { level: landing }
}

function hazardStop (block) {
  return { reason: 'hazard_ahead', block: block.name }
}

module.exports = { hold, step, planWalk }
