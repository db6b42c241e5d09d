'use strict'
// Fixes for flying-squid 1.12.0 bugs that the agent runs into, each small and named.

/**
 * Respawn on 1.20+: clients send client_command as {actionId: 'perform_respawn'} (an enum
 * name since 1.20.2's protocol), but flying-squid compares actionId with 0 and ignores it,
 * so a dead player could never come back. Re-emit the request as flying-squid expects it.
 */
function respawnRequestsByName (serv) {
  serv.on('newPlayer', (player) => {
    player._client.on('client_command', (data) => {
      if (data.actionId === 'perform_respawn') player._client.emit('client_command', { ...data, actionId: 0 })
    })
  })
}

/**
 * The respawn packet on 1.20.2+: its `dimension` became a string and `previousGameMode` was
 * renamed `previousGamemode`; flying-squid still writes a number and the old name, so the
 * packet fails to encode and the client is dropped. Write the packet the new protocol wants.
 */
function respawnPacketOf1202 (serv) {
  const fields = serv.registry.protocol?.play?.toClient?.types?.packet_respawn?.[1] ?? []
  if (fields.find((f) => f.name === 'dimension')?.type !== 'string') return
  serv.on('newPlayer', (player) => {
    player._sendRespawn = (newDifficulty, newGameMode, newDimension) => {
      const world = serv.dimensionNames[newDimension || 0]
      player._client.write('respawn', {
        dimension: world,
        worldName: world,
        hashedSeed: serv.hashedSeed,
        gamemode: newGameMode ?? player.gameMode,
        previousGamemode: player.prevGameMode, // 255: none
        isDebug: false,
        isFlat: false,
        portalCooldown: 0,
        copyMetadata: false
      })
    }
  })
}

function applyFixes (serv) {
  respawnRequestsByName(serv)
  respawnPacketOf1202(serv)
}

module.exports = { applyFixes }
