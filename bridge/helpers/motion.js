'use strict'
// Turning and timed movement. Angles in our degrees (angles.js).
const { HelperError } = require('./errors')
const { sleep } = require('./waiting')
const { yawFromDeg, pitchFromDeg } = require('./angles')
const { state, vec } = require('./state')

const CONTROLS = ['forward', 'back', 'left', 'right', 'jump', 'sprint', 'sneak']
// Longest a control may be held in one call, in seconds.
const MAX_HOLD_S = 10

async function look (bot, { yaw_deg: yawDeg, pitch_deg: pitchDeg }) {
  if (!Number.isFinite(yawDeg) || !Number.isFinite(pitchDeg) || Math.abs(pitchDeg) > 90) {
    throw new HelperError('bad_args', 'yaw_deg must be a number and pitch_deg a number from -90 to 90')
  }
  await bot.look(yawFromDeg(yawDeg), pitchFromDeg(pitchDeg), true)
  return state(bot)
}

/** Holds the named controls for `seconds`, releases them, and reports where the bot went. */
async function hold (bot, { controls, seconds }) {
  const unknown = (controls ?? []).filter((c) => !CONTROLS.includes(c))
  if (!Array.isArray(controls) || controls.length === 0 || unknown.length) {
    throw new HelperError('bad_args', `controls must be a non-empty list of ${CONTROLS.join(', ')}`)
  }
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_HOLD_S) {
    throw new HelperError('bad_args', `seconds must be a number in (0, ${MAX_HOLD_S}]`)
  }
  const start = vec(bot.entity.position)
  for (const c of controls) bot.setControlState(c, true)
  try {
    await sleep(seconds * 1000)
  } finally {
    bot.clearControlStates()
  }
  const end = vec(bot.entity.position)
  return { start, end, displacement: { x: end.x - start.x, y: end.y - start.y, z: end.z - start.z } }
}

module.exports = { look, hold, CONTROLS }
