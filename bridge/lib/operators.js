'use strict'
// Operators by name, for a server where not everybody is one (flying-squid knows only
// `everybody-op`, all or none). Offline mode checks no name: whoever joins under a listed
// name is an operator, so a server others can reach lists none unless its user chooses to.

/** `names`: the players who become operators once they have spawned. */
function install (serv, names) {
  const listed = new Set(names.map((name) => name.toLowerCase()))
  serv.on('newPlayer', (player) => {
    // flying-squid sets `op` from everybody-op while the player logs in, before 'spawned'.
    player.once('spawned', () => {
      if (listed.has(player.username.toLowerCase())) player.op = true
    })
  })
}

module.exports = { install }
