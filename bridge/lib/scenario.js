'use strict'
// Builds a scenario (server-config/scenarios/, validated by Python's Scenario model) into
// flying-squid's overworld before anyone joins, puts every player at its spawn, and gives
// each player who is new to the world the scenario's `inventory`. Its chests are filled through
// lib/containers.js.
const fs = require('fs')
const path = require('path')
const { Vec3 } = require('vec3')
const { walkerSpawn } = require('./walker')

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

// The scenario's items as whole stacks {id, count}, checked against the registry (an
// unknown name throws). A count above the item's stack size fills several slots.
function inventoryStacks (serv, scenario) {
  const stacks = []
  for (const { name, count } of scenario.inventory ?? []) {
    const item = serv.registry.itemsByName[name]
    if (!item) throw new Error(`scenario ${scenario.name}: unknown item '${name}'`)
    for (let left = count; left > 0; left -= item.stackSize) stacks.push({ id: item.id, count: Math.min(left, item.stackSize) })
  }
  return stacks
}

// A player is new to the world unless flying-squid saved their data in its world folder.
function returning (serv, player) {
  const worldFolder = serv._server?.options?.worldFolder
  return Boolean(worldFolder) && fs.existsSync(path.join(worldFolder, 'playerdata', `${player._client.uuid}.dat`))
}

// Into the first free slots, hotbar first. After 'spawned' (the saved inventory and the
// client's own start are done); each updateSlot sends the client a set_slot.
function giveStacks (serv, player, stacks) {
  const Item = require('prismarine-item')(serv.registry)
  for (const { id, count } of stacks) {
    const slot = player.inventory.firstEmptyInventorySlot()
    if (slot === null || slot === undefined) return // full: the rest does not fit
    player.inventory.updateSlot(slot, new Item(id, count))
  }
}

// The build limit generated terrain stays under (diamond_square: 80 and a little).
const TERRAIN_TOP = 128

/** The y of the cell just above the highest solid block of column (x, z): the ground's top. */
async function groundAbove (serv, x, z) {
  for (let y = TERRAIN_TOP; y > 0; y--) {
    const block = await serv.overworld.getBlock(new Vec3(x, y - 1, z))
    if (block.boundingBox === 'block') return y
  }
  return 1
}

/** Boxes, then blocks, then chests, each cell moved by `origin` ([0, 0, 0]: world cells as written). */
async function buildParts (serv, { boxes = [], blocks = [], chests = [] }, origin, stateOf) {
  const at = (cell) => new Vec3(cell[0] + origin[0], cell[1] + origin[1], cell[2] + origin[2])
  for (const box of boxes) {
    const state = stateOf(box.block)
    for (const p of boxCells(box)) await serv.overworld.setBlockStateId(at([p.x, p.y, p.z]), state)
  }
  for (const { block, at: cell } of blocks) await serv.overworld.setBlockStateId(at(cell), stateOf(block))
  for (const { at: cell, items } of chests) {
    await serv.overworld.setBlockStateId(at(cell), stateOf('chest'))
    serv.fillContainer(at(cell), items)
  }
}

async function buildScenario (serv, scenario) {
  const stacks = inventoryStacks(serv, scenario)
  const stateOf = (name) => {
    const block = serv.registry.blocksByName[name]
    if (!block) throw new Error(`unknown block '${name}'`)
    return block.defaultState ?? block.minStateId
  }
  try {
    await buildParts(serv, scenario, [0, 0, 0], stateOf)
    for (const structure of scenario.structures ?? []) {
      const [x, z] = structure.at
      await buildParts(serv, structure, [x, await groundAbove(serv, x, z), z], stateOf)
    }
  } catch (e) {
    throw new Error(`scenario ${scenario.name}: ${e.message}`)
  }
  const { x, z, facing } = scenario.spawn
  const y = scenario.spawn.on_surface ? await groundAbove(serv, Math.floor(x), Math.floor(z)) : scenario.spawn.y
  serv.getSpawnPoint = async () => new Vec3(x, y, z)
  // flying-squid sends player.yaw as the spawn yaw in degrees; set it before the position goes out.
  serv.on('newPlayer', (player) => {
    const find = player.findSpawnPoint
    player.findSpawnPoint = async () => {
      await find()
      player.yaw = SPAWN_YAW[facing]
      player.pitch = 0
      if (scenario.walker && player.username === scenario.walker.name) player.spawnPoint = walkerSpawn(scenario.walker)
    }
    if (stacks.length && !returning(serv, player)) player.once('spawned', () => giveStacks(serv, player, stacks))
  })
}

module.exports = { buildScenario }
