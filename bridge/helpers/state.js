'use strict'
const crypto = require('crypto')
// Snapshots of the bot and of the players it sees, angles in our degrees (see angles.js).
const { yawToDeg, pitchToDeg, facingOf } = require('./angles')
const { HelperError } = require('./errors')
const { tidy } = require('./numbers')

function vec ({ x, y, z }) {
  return { x: tidy(x), y: tidy(y), z: tidy(z) }
}

function state (bot) {
  const e = bot.entity
  const yawDeg = yawToDeg(e.yaw)
  return {
    username: bot.username,
    version: bot.version,
    position: vec(e.position),
    velocity: vec(e.velocity),
    yaw_deg: yawDeg,
    pitch_deg: pitchToDeg(e.pitch),
    facing: facingOf(yawDeg),
    on_ground: e.onGround,
    health: bot.health,
    food: bot.food,
    game_mode: bot.game.gameMode,
    dimension: bot.game.dimension,
    time_of_day: bot.time.timeOfDay
  }
}

/** The UUID an offline-mode server gives a name: version 3, from MD5 of "OfflinePlayer:<name>". */
function offlineUuid (username) {
  const b = crypto.createHash('md5').update(`OfflinePlayer:${username}`).digest()
  b[6] = (b[6] & 0x0f) | 0x30
  b[8] = (b[8] & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

// flying-squid 1.20.4 sends no player list mineflayer understands and spawns players with
// a wrong entity type, so bot.players stays empty: find the entity by its UUID instead.
function playerEntity (bot, username) {
  const uuid = offlineUuid(username)
  return bot.players[username]?.entity ?? Object.values(bot.entities).find((e) => e.uuid === uuid)
}

/** Another player's entity as this bot sees it (positions and angles as the server relayed them). */
function playerPose (bot, { username }) {
  const entity = playerEntity(bot, username)
  if (!entity) throw new HelperError('not_visible', `player '${username}' is not in view of ${bot.username}`)
  const yawDeg = yawToDeg(entity.yaw)
  return { username, position: vec(entity.position), yaw_deg: yawDeg, pitch_deg: pitchToDeg(entity.pitch), facing: facingOf(yawDeg) }
}

module.exports = { state, playerPose, playerEntity, vec }
