'use strict'
// Builds a scenario (server-config/scenarios/, validated by Python's Scenario model) into
// flying-squid's overworld before anyone joins, and puts every player at its spawn.
const { Vec3 } = require('vec3')

// Yaw in degrees on the wire (Minecraft's convention) for each spawn facing.
const SPAWN_YAW = { south: 0, west: 90, north: 180, east: -90 }

function range (a, b) {
  const out = []
  for (let v = Math.min(a, b); v <= Math.max(a, b); v++) out.push(v)
  return out
}

function* boxCells ({ from, to, hollow }) {
  const [xs, ys, zs] = [0, 1, 2].map((i) => range(from[i], to[i]))
  const edge = (v, vs) => v === vs[0] || v === vs[vs.length - 1]
  for (const x of xs) {
    for (const y of ys) {
      for (const z of zs) {
        if (!hollow || edge(x, xs) || edge(y, ys) || edge(z, zs)) yield new Vec3(x, y, z)
      }
    }
  }
}

async function buildScenario (serv, scenario) {
  const stateOf = (name) => {
    const block = serv.registry.blocksByName[name]
    if (!block) throw new Error(`scenario ${scenario.name}: unknown block '${name}'`)
    return block.defaultState ?? block.minStateId
  }
  for (const box of scenario.boxes) {
    const state = stateOf(box.block)
    for (const p of boxCells(box)) await serv.overworld.setBlockStateId(p, state)
  }
  for (const { block, at } of scenario.blocks) await serv.overworld.setBlockStateId(new Vec3(...at), stateOf(block))
  const { x, y, z, facing } = scenario.spawn
  serv.getSpawnPoint = async () => new Vec3(x, y, z)
  // flying-squid sends player.yaw as the spawn yaw in degrees; set it before the position goes out.
  serv.on('newPlayer', (player) => {
    const find = player.findSpawnPoint
    player.findSpawnPoint = async () => {
      await find()
      player.yaw = SPAWN_YAW[facing]
      player.pitch = 0
    }
  })
}

module.exports = { buildScenario }
