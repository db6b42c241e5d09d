'use strict'
// flying-squid 1.12 has no lava damage: a player could stand in lava for ever. Vanilla burns a
// player in lava for 4 health every half second (dead in under 3 s from full health); this
// does the same, so that walking into lava costs what it costs in a real world.
const { Vec3 } = require('vec3')

const TICK_MS = 500
const DAMAGE = 4

function burnPlayersInLava (serv) {
  const timer = setInterval(() => {
    for (const player of serv.players) burnIfInLava(serv, player).catch(() => {})
  }, TICK_MS)
  timer.unref() // never what keeps the process alive
}

async function burnIfInLava (serv, player) {
  if (player.health <= 0 || player.gameMode === 1 || !player.position) return // dead, or creative
  const feet = player.position.floored()
  for (const at of [feet, feet.plus(new Vec3(0, 1, 0))]) {
    const block = serv.registry.blocks[await player.world.getBlockType(at)]
    if (block?.name === 'lava') return player.takeDamage({ damage: DAMAGE })
  }
}

module.exports = { burnPlayersInLava }
