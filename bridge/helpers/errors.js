'use strict'
// An expected failure with a short machine-readable code the Python side can branch on.
class HelperError extends Error {
  constructor (code, message) {
    super(message)
    this.code = code
  }
}

/** Throws bad_args unless `value` is an integer from `lo` to `hi`: the check of every count, radius and port. */
function requireInteger (name, value, lo, hi) {
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new HelperError('bad_args', `${name} must be an integer from ${lo} to ${hi}`)
  }
}

module.exports = { HelperError, requireInteger }
