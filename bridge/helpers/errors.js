'use strict'
// An expected failure with a short machine-readable code the Python side can branch on, and the
// checks of the numbers the bridge's own callers send (a scan's radius, a block read, the
// viewer's port). A world tool's arguments arrive checked and whole: its tool.py's model is where
// their bounds and defaults live (agent/tools/model_schema.py).
class HelperError extends Error {
  constructor (code, message) {
    super(message)
    this.code = code
  }
}

// The world border (x and z), and a height beyond any version's build limits, in blocks: no
// block the bot can read lies outside them.
const WORLD_BORDER = 30000000
const BUILD_LIMIT = 2048

/**
 * `args` once every value named is in it: a world tool's model sends each of them (its tool.py
 * owns their defaults), so a missing one is a caller's mistake, bad_args naming it.
 */
function required (args, ...names) {
  const missing = names.filter((name) => args[name] === undefined || args[name] === null)
  if (missing.length > 0) throw new HelperError('bad_args', `missing argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`)
  return args
}

/** Throws bad_args unless `value` is an integer from `lo` to `hi`. */
function requireInteger (name, value, lo, hi) {
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new HelperError('bad_args', `${name} must be an integer from ${lo} to ${hi}`)
  }
}

/** Throws bad_args unless x, y and z are a block inside the world. */
function requireWorldBlock ({ x, y, z }) {
  requireInteger('x', x, -WORLD_BORDER, WORLD_BORDER)
  requireInteger('y', y, -BUILD_LIMIT, BUILD_LIMIT)
  requireInteger('z', z, -WORLD_BORDER, WORLD_BORDER)
}

module.exports = { HelperError, required, requireInteger, requireWorldBlock }
