'use strict'
// An expected failure with a short machine-readable code the Python side can branch on, and
// the checks of the numbers an action takes: each refuses what it cannot use with bad_args,
// naming the argument and its range, before anything reaches the bot.
class HelperError extends Error {
  constructor (code, message) {
    super(message)
    this.code = code
  }
}

// The world border (x and z), and a height beyond any version's build limits, in blocks: no
// block or point the bot can act on lies outside them.
const WORLD_BORDER = 30000000
const BUILD_LIMIT = 2048

/** Throws bad_args unless `value` is an integer from `lo` to `hi`: the check of every count, radius and port. */
function requireInteger (name, value, lo, hi) {
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new HelperError('bad_args', `${name} must be an integer from ${lo} to ${hi}`)
  }
}

/**
 * Throws bad_args unless `value` is a finite number from `lo` to `hi`: the check of every angle,
 * distance and duration. A huge yaw (1e308) once became NaN in the bot, and failed every later look.
 */
function requireNumber (name, value, lo, hi) {
  if (!Number.isFinite(value) || value < lo || value > hi) {
    throw new HelperError('bad_args', `${name} must be a number from ${lo} to ${hi}`)
  }
}

/** Throws bad_args unless x, y and z are a point inside the world; `integers`: a block's. */
function requireWorldPoint ({ x, y, z }, integers = false) {
  const check = integers ? requireInteger : requireNumber
  check('x', x, -WORLD_BORDER, WORLD_BORDER)
  check('y', y, -BUILD_LIMIT, BUILD_LIMIT)
  check('z', z, -WORLD_BORDER, WORLD_BORDER)
}

module.exports = { HelperError, requireInteger, requireNumber, requireWorldPoint }
