'use strict'
// Walking to a block centre and coming to rest there: the physics every stepping action
// shares (move.js's grid step, digging.js's step into a cleared cell). A route is a line of
// whole blocks along a frame's facing (frame.js), with the feet level planned in each block.
const { Vec3 } = require('vec3')
const { sleep } = require('./waiting')
const { feetBlock } = require('./frame')

// After the key is released, ground friction keeps 0.546 of the speed each tick, so the bot
// glides 0.546 / (1 - 0.546) = 1.2 times its speed per tick before stopping; the release
// takes effect one tick later (the tick event comes before the step that reads the keys): 2.2.
const GLIDE_PER_SPEED = 2.2
// Within this many blocks of the centre the bot sneaks, so it stops within a few hundredths.
const SLOW_DOWN = 0.7
// Closer than this (blocks) to a block centre counts as there.
const ARRIVED = 0.02
// Past this far from the centre of the block it stands on (blocks), the bot's half-width
// (0.3) no longer rests on it: over the edge of a drop.
const EDGE_LEAVES = 0.8
// Going over a drop's edge the bot glides to this far past the centre with no key held, so it
// leaves slowly and lands in the next block instead of flying past it.
const EDGE_AIM = 0.9
// How long a jump or a step down may take to land, in ms: a one-block drop lands in ~0.4 s.
const LANDING_MS = 2000
// Below this horizontal speed (blocks per tick) the bot is at rest.
const REST_SPEED = 0.005
// The keys steering holds; it lets go of them when it ends.
const KEYS = ['forward', 'sneak', 'jump']

/** Waits until the bot stands still on the ground, `ms` pass or `ended()`, so what is measured next is where it rests. */
async function settle (bot, ms = LANDING_MS, ended = () => false) {
  const until = Date.now() + ms
  const moving = () => !bot.entity.onGround || Math.hypot(bot.entity.velocity.x, bot.entity.velocity.z) > REST_SPEED
  while (!ended() && moving() && Date.now() < until) await sleep(50)
}

/**
 * `levels` (feet levels, blocks up from the frame's feet, in blocks 0..n along the facing)
 * placed in the world: progress along the walk, and the centre of its last block.
 */
function routeOf (frame, levels) {
  const origin = frame.toWorld(0, 0, 0).offset(0.5, 0, 0.5)
  const unit = frame.toWorld(1, 0, 0).minus(frame.toWorld(0, 0, 0))
  const last = levels.length - 1
  return {
    levels,
    baseY: frame.feet.y,
    target: frame.toWorld(last, 0, levels[last]).offset(0.5, 0, 0.5),
    /** Blocks walked from the start block's centre, along the facing. */
    along: (p) => (p.x - origin.x) * unit.x + (p.z - origin.z) * unit.z
  }
}

/** Where to aim to go over the next drop's edge not yet passed (blocks along the walk), or null. */
function dropEdge (levels, along) {
  for (let k = 0; k + 1 < levels.length; k++) {
    if (levels[k + 1] < levels[k] && along < k + EDGE_LEAVES) return k + EDGE_AIM
  }
  return null
}

/**
 * Walks `route` tick by tick: steers at the last block's centre, jumps when it meets the face
 * of a planned step, glides slowly over the edge of a planned drop, and lets go of the keys when
 * the glide the current speed will produce covers the rest. Run by the ticks themselves, not a
 * timer, so a busy machine cannot make it overshoot.
 * @returns {Promise<'arrived'|'stopped'|'timeout'|'disconnected'>} `stopped` once `stopped()` is true, `timeout` past `until`
 */
function steer (bot, route, until, stopped = () => false) {
  const jumped = new Set() // one jump per step on land: a failed one leaves the bot pushing at the face (move.js: a collision)
  return new Promise((resolve) => {
    const finish = (outcome) => {
      bot.removeListener('physicsTick', onTick)
      bot.removeListener('end', onEnd)
      if (outcome !== 'disconnected') for (const key of KEYS) bot.setControlState(key, false)
      resolve(outcome)
    }
    const onEnd = () => finish('disconnected')
    const onTick = () => {
      const outcome = stopped() ? 'stopped' : Date.now() > until ? 'timeout' : steerTick(bot, route, jumped)
      if (outcome) finish(outcome)
    }
    bot.on('physicsTick', onTick)
    bot.once('end', onEnd)
  })
}

/** One tick of `steer`: sets the keys and the look, or returns 'arrived'. */
function steerTick (bot, { levels, target, baseY, along: alongOf }, jumped) {
  const e = bot.entity
  const p = e.position
  const along = alongOf(p)
  const last = levels.length - 1
  const next = Math.min(last, Math.max(0, Math.round(along)) + 1)
  const level = feetBlock(bot).y - baseY
  const glide = Math.hypot(e.velocity.x, e.velocity.z) * GLIDE_PER_SPEED + ARRIVED
  const remaining = Math.hypot(target.x - p.x, target.z - p.z)
  const edge = dropEdge(levels, along)
  const there = edge === null && e.onGround && level === levels[last]
  if (there && remaining <= glide) return 'arrived'
  // steer at the centre so sideways drift is corrected on the way
  bot.lookAt(new Vec3(target.x, p.y + e.height * 0.9, target.z), true)
  const climbing = level < levels[next]
  // on land one jump at the face; in water a jump only swims up, so it is held
  const jump = climbing && (e.isInWater || (e.onGround && e.isCollidedHorizontally && !jumped.has(next)))
  if (jump && !e.isInWater) jumped.add(next)
  bot.setControlState('jump', jump)
  // in the air only a climb pushes on; a fall goes down with no key, to land in its block
  bot.setControlState('forward', e.onGround ? edge === null || edge - along > glide : climbing)
  bot.setControlState('sneak', there && remaining < SLOW_DOWN) // the last stretch slowly, for a short glide
  return null
}

module.exports = { settle, routeOf, steer }
