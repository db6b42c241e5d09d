'use strict'
// The one place where Mineflayer's angles become the degrees everything else uses.
//
// Mineflayer: radians, yaw 0 = north (-Z), growing counter-clockwise seen from
// above (PI/2 = west); pitch > 0 looks up.
// Ours (Minecraft's F3 screen): degrees, yaw 0 = south (+Z), 90 = west,
// 180 = north, -90 = east, in (-180, 180]; pitch > 0 looks down, in [-90, 90].
const { tidy } = require('./numbers')

const FACINGS = [[0, 'south'], [90, 'west'], [180, 'north'], [-90, 'east']]

function normalizeDeg (deg) {
  let d = ((deg % 360) + 360) % 360 // [0, 360)
  if (d > 180) d -= 360
  return d === -180 ? 180 : d
}

function yawToDeg (yawRad) {
  return tidy(normalizeDeg(180 - (yawRad * 180) / Math.PI))
}

function yawFromDeg (yawDeg) {
  return ((180 - yawDeg) * Math.PI) / 180
}

function pitchToDeg (pitchRad) {
  return tidy((-pitchRad * 180) / Math.PI)
}

function pitchFromDeg (pitchDeg) {
  return (-pitchDeg * Math.PI) / 180
}

/** Nearest cardinal name for a yaw in our degrees. */
function facingOf (yawDeg) {
  let best = FACINGS[0]
  for (const f of FACINGS) {
    if (Math.abs(normalizeDeg(yawDeg - f[0])) < Math.abs(normalizeDeg(yawDeg - best[0]))) best = f
  }
  return best[1]
}

/** Our yaw in degrees of a facing name. */
function yawOfFacing (facing) {
  const found = FACINGS.find(([, name]) => name === facing)
  if (!found) throw new Error(`unknown facing '${facing}'`)
  return found[0]
}

/** The way the bot faces, in our degrees: {yaw_deg, pitch_deg, facing}. */
function orientation (bot) {
  const yaw = yawToDeg(bot.entity.yaw)
  return { yaw_deg: yaw, pitch_deg: pitchToDeg(bot.entity.pitch), facing: facingOf(yaw) }
}

module.exports = { orientation, yawToDeg, yawFromDeg, pitchToDeg, pitchFromDeg, facingOf, yawOfFacing, normalizeDeg, FACINGS }
