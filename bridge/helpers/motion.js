'use strict'
// Turning and moving. Angles in our degrees (angles.js); distances in blocks.
// Movement reports what happened, never what was asked: start, end, displacement, and
// why it stopped (completed, collision, fell, timeout, disconnected).
const { Vec3 } = require('vec3')
const { HelperError } = require('./errors')
const { sleep } = require('./waiting')
const { yawToDeg, yawFromDeg, pitchToDeg, pitchFromDeg, facingOf, yawOfFacing, FACINGS } = require('./angles')
const { frameOf } = require('./frame')
const { state, vec } = require('./state')

const CONTROLS = ['forward', 'back', 'left', 'right', 'jump', 'sprint', 'sneak']
const MAX_HOLD_S = 10
const MAX_BLOCKS = 32
// Blocked this many physics ticks in a row (50 ms each) while pushing: a collision.
const COLLISION_TICKS = 3
// Dropping more than this below the start is a fall (stepping down one block is walking).
const FALL_THRESHOLD = 1.5
// Walking speed on flat ground is ~4.3 blocks/s; a grid step gets this much slack per block, plus a second.
const GRID_STEP_S_PER_BLOCK = 0.5
// After the key is released, ground friction keeps 0.546 of the speed each tick, so the bot
// glides 0.546 / (1 - 0.546) = 1.2 times its speed per tick before stopping; the release
// takes effect one tick later (the tick event comes before the step that reads the keys): 2.2.
const GLIDE_PER_SPEED = 2.2
// Within this many blocks of the centre a grid step sneaks, so it stops within a few hundredths.
const SLOW_DOWN = 0.7
// Closer than this (blocks) to a block centre counts as there.
const ARRIVED = 0.02
// How long a move waits for the bot to land and stop gliding before reporting.
const LANDING_WAIT_MS = 3000
// Below this horizontal speed (blocks per tick) the bot is at rest.
const REST_SPEED = 0.005

function orientation (bot) {
  const yaw = yawToDeg(bot.entity.yaw)
  return { yaw_deg: yaw, pitch_deg: pitchToDeg(bot.entity.pitch), facing: facingOf(yaw) }
}

/**
 * A target: {yaw_deg[, pitch_deg]} | {facing} | {x, y, z} (a world point to look at), at most one;
 * then `snap: true` turns to the cardinal nearest the result. Pitch is kept unless given.
 */
async function look (bot, args) {
  const point = 'x' in args || 'y' in args || 'z' in args
  const targets = ['yaw_deg' in args, 'facing' in args, point].filter(Boolean).length
  if (targets > 1) throw new HelperError('bad_args', 'give only one of: yaw (and optional pitch), facing, or a point x, y, z')
  if (targets === 0 && args.snap !== true) throw new HelperError('bad_args', 'give yaw (and optional pitch), facing, a point x, y, z, or snap: true')
  const pitch = args.pitch_deg ?? pitchToDeg(bot.entity.pitch)
  if (!Number.isFinite(pitch) || Math.abs(pitch) > 90) throw new HelperError('bad_args', 'pitch must be a number from -90 to 90')
  if (point) {
    if (![args.x, args.y, args.z].every(Number.isFinite)) throw new HelperError('bad_args', 'x, y and z must all be numbers')
    await bot.lookAt(new Vec3(args.x, args.y, args.z), true)
  } else if ('facing' in args || 'yaw_deg' in args) {
    if ('facing' in args && !FACINGS.some(([, name]) => name === args.facing)) throw new HelperError('bad_args', 'facing must be north, east, south or west')
    const yaw = 'facing' in args ? yawOfFacing(args.facing) : args.yaw_deg
    if (!Number.isFinite(yaw)) throw new HelperError('bad_args', 'yaw must be a number (degrees)')
    await bot.look(yawFromDeg(yaw), pitchFromDeg(pitch), true)
  }
  if (args.snap === true) {
    const cardinal = yawOfFacing(facingOf(yawToDeg(bot.entity.yaw)))
    await bot.look(yawFromDeg(cardinal), pitchFromDeg(point ? pitchToDeg(bot.entity.pitch) : pitch), true)
  }
  return orientation(bot)
}

/** Watches a move tick by tick: collision, fall, disconnect. */
function watchMove (bot, pushing) {
  const start = bot.entity.position.clone()
  const w = { start, stop: null, blockedTicks: 0, peakY: start.y, fall: 0, ended: false }
  const onEnd = () => { w.ended = true; w.stop = 'disconnected' }
  const onTick = () => {
    const p = bot.entity.position
    w.peakY = Math.max(w.peakY, p.y)
    w.fall = Math.max(w.fall, w.peakY - p.y)
    w.blockedTicks = pushing() && bot.entity.isCollidedHorizontally ? w.blockedTicks + 1 : 0
    if (!w.stop && w.blockedTicks >= COLLISION_TICKS) w.stop = 'collision'
    if (!w.stop && start.y - p.y > FALL_THRESHOLD) w.stop = 'fell'
  }
  bot.on('physicsTick', onTick)
  bot.once('end', onEnd)
  w.dispose = () => {
    bot.removeListener('physicsTick', onTick)
    bot.removeListener('end', onEnd)
  }
  return w
}

/** Waits until the bot has landed and stopped gliding, so the report is where it came to rest. */
async function settle (bot, w) {
  const deadline = Date.now() + LANDING_WAIT_MS
  const moving = () => !bot.entity.onGround || Math.hypot(bot.entity.velocity.x, bot.entity.velocity.z) > REST_SPEED
  while (!w.ended && moving() && Date.now() < deadline) await sleep(50)
}

function report (bot, w, stop) {
  const end = bot.entity.position
  return {
    start: vec(w.start),
    end: vec(end),
    displacement: vec(end.minus(w.start)),
    stop_reason: stop,
    fall_distance: w.fall,
    ...orientation(bot)
  }
}

/** Holds controls for `seconds`; stops early on collision, fall or disconnect. */
async function hold (bot, { controls, seconds }) {
  const unknown = (controls ?? []).filter((c) => !CONTROLS.includes(c))
  if (!Array.isArray(controls) || controls.length === 0 || unknown.length) {
    throw new HelperError('bad_args', `controls must be a non-empty list of ${CONTROLS.join(', ')}`)
  }
  if (!Number.isFinite(seconds) || seconds < 0.05 || seconds > MAX_HOLD_S) {
    throw new HelperError('bad_args', `duration must be a number of seconds from 0.05 to ${MAX_HOLD_S}`)
  }
  const horizontal = controls.some((c) => ['forward', 'back', 'left', 'right'].includes(c))
  const w = watchMove(bot, () => horizontal)
  for (const c of controls) bot.setControlState(c, true)
  const until = Date.now() + seconds * 1000
  try {
    while (!w.stop && Date.now() < until) await sleep(Math.min(50, until - Date.now()))
  } finally {
    if (!w.ended) bot.clearControlStates()
  }
  await settle(bot, w)
  w.dispose()
  return report(bot, w, w.stop ?? 'completed')
}

/** Walks `blocks` whole blocks along the facing (snapped to its cardinal) and stops at that block's centre. */
async function step (bot, { blocks }) {
  if (!Number.isInteger(blocks) || blocks < 1 || blocks > MAX_BLOCKS) {
    throw new HelperError('bad_args', `blocks must be an integer from 1 to ${MAX_BLOCKS}`)
  }
  const frame = frameOf(bot)
  const target = frame.toWorld(blocks, 0, 0).offset(0.5, 0, 0.5)
  await bot.look(yawFromDeg(yawOfFacing(frame.facing)), bot.entity.pitch, true)
  const w = watchMove(bot, () => bot.controlState.forward)
  const until = Date.now() + (1 + blocks * GRID_STEP_S_PER_BLOCK) * 1000
  try {
    await walkTo(bot, w, target, until)
  } finally {
    if (!w.ended) bot.clearControlStates()
  }
  await settle(bot, w)
  if (!w.ended) await bot.look(yawFromDeg(yawOfFacing(frame.facing)), bot.entity.pitch, true)
  w.dispose()
  return { ...report(bot, w, w.stop ?? 'completed'), target: vec(target) }
}

/**
 * Steers at `target` on every physics tick and lets go of the key when the glide the current
 * speed will produce covers the rest. Run by the ticks themselves, not a timer, so a busy
 * machine cannot make it overshoot.
 */
function walkTo (bot, w, target, until) {
  return new Promise((resolve) => {
    const onTick = () => {
      const p = bot.entity.position
      const remaining = Math.hypot(target.x - p.x, target.z - p.z)
      const speed = Math.hypot(bot.entity.velocity.x, bot.entity.velocity.z)
      if (Date.now() > until && !w.stop) w.stop = 'timeout'
      if (w.stop || w.ended || remaining <= speed * GLIDE_PER_SPEED + ARRIVED) {
        bot.removeListener('physicsTick', onTick)
        bot.setControlState('forward', false)
        bot.setControlState('sneak', false)
        resolve()
        return
      }
      // steer at the centre so sideways drift is corrected on the way
      bot.lookAt(new Vec3(target.x, p.y + bot.entity.height * 0.9, target.z), true)
      bot.setControlState('forward', true)
      bot.setControlState('sneak', remaining < SLOW_DOWN) // the last stretch slowly, for a short glide
    }
    bot.on('physicsTick', onTick)
  })
}

/** Releases every control and stops any path being followed. */
function stop (bot) {
  bot.clearControlStates()
  bot.pathfinder?.stop()
  return { released: true, ...orientation(bot) }
}

/** Waits `seconds` (0-60) in real time; reports the state after. */
async function wait (bot, { seconds }) {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 60) throw new HelperError('bad_args', 'seconds must be a number from 0 to 60')
  await sleep(seconds * 1000)
  return state(bot)
}

module.exports = { look, hold, step, stop, wait, CONTROLS }
