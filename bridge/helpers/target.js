'use strict'
// Where an action points: egocentric offsets {forward, right, up} or a world block {x, y, z}.
const { Vec3 } = require('vec3')
const { HelperError } = require('./errors')
const { frameOf } = require('./frame')

// Survival reach from the eyes, in blocks.
const REACH = 4.5
const OFFSETS = ['forward', 'right', 'up']

function targetBlock (bot, args) {
  const ego = OFFSETS.some((k) => k in args)
  const world = ['x', 'y', 'z'].some((k) => k in args)
  if (ego === world) throw new HelperError('bad_args', 'give either offsets forward/right/up or a world block x, y, z, not both')
  if (world) {
    return new Vec3(args.x, args.y, args.z)
  }
  const offsets = OFFSETS.map((k) => args[k] ?? 0) // missing ones are 0
  return frameOf(bot).toWorld(...offsets)
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
