'use strict'
// Where an action points: egocentric offsets {forward, right, up} or a world block {x, y, z}.
const { Vec3 } = require('vec3')
const { HelperError } = require('./errors')
const { frameOf } = require('./frame')

// Survival reach from the eyes, in blocks.
const REACH = 4.5

function targetBlock (bot, args) {
  const ego = ['forward', 'right', 'up'].some((k) => k in args)
  const world = ['x', 'y', 'z'].some((k) => k in args)
  if (ego === world) throw new HelperError('bad_args', 'give either offsets forward/right/up or a world block x, y, z, not both')
  const keys = ego ? ['forward', 'right', 'up'] : ['x', 'y', 'z']
  const values = keys.map((k) => args[k] ?? 0)
  if (!values.every(Number.isInteger) || (world && keys.some((k) => !(k in args)))) {
    throw new HelperError('bad_args', ego ? 'forward, right and up must be integers (missing ones are 0)' : 'x, y and z must all be integers')
  }
  return ego ? frameOf(bot).toWorld(...values) : new Vec3(...values)
}

function checkReach (bot, pos) {
  const eyes = bot.entity.position.offset(0, bot.entity.height * 0.9, 0)
  const distance = eyes.distanceTo(pos.offset(0.5, 0.5, 0.5))
  if (distance > REACH) throw new HelperError('unreachable', `block ${fmt(pos)} is ${distance.toFixed(1)} blocks away; reach is ${REACH}`)
}

function fmt (p) {
  return `(${p.x}, ${p.y}, ${p.z})`
}

module.exports = { targetBlock, checkReach, fmt, REACH }
