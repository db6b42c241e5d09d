'use strict'
// mc-look: turning the bot. Angles in our degrees (angles.js).
const { Vec3 } = require('vec3')
const { HelperError } = require('./errors')
const { yawToDeg, yawFromDeg, pitchToDeg, pitchFromDeg, facingOf, yawOfFacing, orientation } = require('./angles')

/**
 * A target: {yaw_deg[, pitch_deg]} | {facing} | {x, y, z} (a world point to look at), at most one;
 * then `snap: true` turns to the cardinal nearest the result. Pitch is kept unless given.
 * The numbers arrive checked: mc-look's model bounds them.
 */
async function look (bot, args) {
  const point = 'x' in args || 'y' in args || 'z' in args
  const targets = ['yaw_deg' in args, 'facing' in args, point].filter(Boolean).length
  if (targets > 1) throw new HelperError('bad_args', 'give only one of: yaw (and optional pitch), facing, or a point x, y, z')
  if (targets === 0 && args.snap !== true) throw new HelperError('bad_args', 'give yaw (and optional pitch), facing, a point x, y, z, or snap: true')
  const pitch = args.pitch_deg ?? pitchToDeg(bot.entity.pitch)
  if (point) {
    await bot.lookAt(new Vec3(args.x, args.y, args.z), true)
  } else if ('facing' in args || 'yaw_deg' in args) {
    const yaw = 'facing' in args ? yawOfFacing(args.facing) : args.yaw_deg
    await bot.look(yawFromDeg(yaw), pitchFromDeg(pitch), true)
  }
  if (args.snap === true) {
    const cardinal = yawOfFacing(facingOf(yawToDeg(bot.entity.yaw)))
    await bot.look(yawFromDeg(cardinal), pitchFromDeg(point ? pitchToDeg(bot.entity.pitch) : pitch), true)
  }
  return orientation(bot)
}

module.exports = { look }
