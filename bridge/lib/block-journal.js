'use strict'
// Block changes kept in a file as they happen, so that a server started again after it died
// (even by SIGKILL, which saves nothing) puts them back: flying-squid saves chunks only on a
// clean stop, and only up to 1.16.5 (prismarine-provider-anvil issues #73 and #75).
//
// One JSON line per change, [x, y, z, stateId], appended synchronously: a change the world
// made is in the file before anything else happens. Replayed in order after the scenario.
const fs = require('fs')
const { Vec3 } = require('vec3')

/** Every later block change of the overworld goes into `file`. */
function record (serv, file) {
  serv.overworld.on('blockUpdate', (before, after) => {
    const { x, y, z } = after.position
    fs.appendFileSync(file, JSON.stringify([x, y, z, after.stateId]) + '\n')
  })
}

/** Puts back the changes `file` holds (none when it does not exist); returns how many. */
async function replay (serv, file) {
  if (!fs.existsSync(file)) return 0
  let count = 0
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const change = parse(line)
    if (change === null) continue
    const [x, y, z, stateId] = change
    await serv.overworld.setBlockStateId(new Vec3(x, y, z), stateId)
    count++
  }
  return count
}

// A line cut short by a kill mid-write is skipped, as is anything that is not a change.
function parse (line) {
  try {
    const change = JSON.parse(line)
    return Array.isArray(change) && change.length === 4 && change.every(Number.isInteger) ? change : null
  } catch {
    return null
  }
}

module.exports = { record, replay }
