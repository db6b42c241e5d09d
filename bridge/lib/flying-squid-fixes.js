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

/**
 * The login's second position packet. After spawning a player, flying-squid waits for its
 * first 'flying' or 'look' packet, then resends the login position with the look it last
 * heard. It starts listening only after the initial chunks have gone out, and a 1.20 client
 * answers the first position at once and then moves with 'position' packets, so the wait
 * often hears nothing until the player first turns on the spot. The resend then lands
 * mid-play: it undoes the turn (the server has not applied it yet) and pulls a player who
 * has walked back to the spawn point. At login, send it straight after the spawn, before the
 * player can act; a later wait (a change of world) is left as it was.
 */
function loginResendFollowsSpawn (serv) {
  serv.on('newPlayer', (player) => {
    const waitForMovement = player.waitPlayerLogin
    let joining = true
    player.waitPlayerLogin = () => {
      if (!joining) return waitForMovement()
      joining = false
      return Promise.resolve()
    }
  })
}

/**
 * A respawn, as vanilla does it: at the world's spawn point (flying-squid sends the position
 * the player died at: in the lava that killed it, to die again), and with the chunks sent
 * again (the respawn packet makes the client drop its world; flying-squid thinks the client
 * still has them and sends none, so the respawned player stood in an empty world).
 */
function respawnAtSpawnPoint (serv) {
  serv.on('newPlayer', (player) => {
    player.on('requestRespawn', () => {
      if (player.spawnPoint) player.position = player.spawnPoint.clone()
    })
    player.on('requestRespawn_done', () => {
      for (const id of Object.keys(player.loadedChunks)) delete player.loadedChunks[id]
      player.worldSendRestOfChunks().catch(() => {})
    })
  })
}

// How long after a block_place the placement is read back: flying-squid answers a placement it
// makes within the packet's own handling (a chunk read, then setBlock).
const PLACE_ANSWER_MS = 150
const FACE_VECTORS = [[0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1], [-1, 0, 0], [1, 0, 0]]

/**
 * A refused placement answered: vanilla answers every block_place with the blocks at the
 * clicked cell and the cell across its face, placed or not; flying-squid says nothing when it
 * refuses one (a block into the placer's own feet cell, as a towering jump's click reads when
 * its position arrives a tick late), and the client waits 5 s for a reply (pathfinder then tries
 * again: a tower of 7 took 74 s). When the cell across is still empty a moment after, send both.
 */
function placementsAnswered (serv) {
  const { Vec3 } = require('vec3')
  serv.on('newPlayer', (player) => {
    player._client.on('block_place', ({ direction, location } = {}) => {
      const face = FACE_VECTORS[direction]
      if (!face) return
      const clicked = new Vec3(location.x, location.y, location.z)
      const across = clicked.offset(...face)
      setTimeout(async () => {
        const [there, ref] = await Promise.all([player.world.getBlock(across), player.world.getBlock(clicked)])
        if (there.boundingBox !== 'empty') return
        player.sendBlock(clicked, ref.stateId)
        player.sendBlock(across, there.stateId)
      }, PLACE_ANSWER_MS)
    })
  })
}

/**
 * Saving the world (prismarine-world 3.7): a round of saves writes each queued chunk as it is
 * then and clears the whole queue once they are written, so a chunk changed while the round was
 * writing (a block set while the first chunks around a joining player were saved, seconds on a
 * loaded machine) left the queue unsaved and was lost at the restart. Take off the queue only
 * what the round wrote: a chunk queued again meanwhile (a new entry) waits for the next round.
 */
function savesEveryChange (World) {
  World.prototype.saveNow = async function () {
    if (this.savingQueue.size === 0) return
    const round = [...this.savingQueue]
    for (const [key, { chunkX, chunkZ }] of round) {
      this.finishedSaving = Promise.all([this.finishedSaving, this.storageProvider.save(chunkX, chunkZ, this.columns[key])])
    }
    await this.finishedSaving
    for (const [key, queued] of round) if (this.savingQueue.get(key) === queued) this.savingQueue.delete(key)
    for (const [key, { chunkX, chunkZ }] of this.unloadQueue) {
      if (!this.savingQueue.has(key)) this.forceUnloadColumn(key, chunkX, chunkZ)
    }
    this.emit('doneSaving')
  }
}

function applyFixes (serv) {
  savesEveryChange(require('prismarine-world')())
  placementsAnswered(serv)
  respawnRequestsByName(serv)
  respawnAtSpawnPoint(serv)
  respawnPacketOf1202(serv)
  loginResendFollowsSpawn(serv)
}

module.exports = { applyFixes, savesEveryChange }
