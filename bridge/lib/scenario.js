'use strict'
// Builds a scenario (server-config/scenarios/, validated by Python's Scenario model) into
// flying-squid's overworld before anyone joins, puts every player at its spawn, and gives
// each player who is new to the world the scenario's `inventory`. Its chests are filled through
// lib/containers.js.
const fs = require('fs')
const path = require('path')
const { Vec3 } = require('vec3')
const { walkerSpawn } = require('./walker')
const { stateIdOf } = require('../helpers/blockstate')

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

// Items as whole stacks {id, count}, checked against the registry (an unknown name throws).
// A count above the item's stack size fills several slots.
function inventoryStacks (serv, scenario, items) {
  const stacks = []
  for (const { name, count } of items ?? []) {
    const item = serv.registry.itemsByName[name]
    if (!item) throw new Error(`scenario ${scenario.name}: unknown item '${name}'`)
    for (let left = count; left > 0; left -= item.stackSize) stacks.push({ id: item.id, count: Math.min(left, item.stackSize) })
  }
  return stacks
}

// What each player carries on joining: their own list in `inventories` (a team's, by name),
// else the scenario's `inventory`. All read before anyone joins, so a bad name fails the start.
function stacksByPlayer (serv, scenario) {
  const own = Object.fromEntries(Object.entries(scenario.inventories ?? {})
    .map(([name, items]) => [name, inventoryStacks(serv, scenario, items)]))
  const common = inventoryStacks(serv, scenario, scenario.inventory)
  return (username) => own[username] ?? common
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

// How far from the spawn's column dry land is looked for (blocks, the square's half side).
const DRY_LAND_REACH = 48
// What the bot must not be put on: water, lava, and the top of a tree.
const NOT_GROUND = /^(water|lava|.*_leaves|.*_log)$/

/** The cell above dry land nearest column (x, z), looking out ring by ring: [x, y, z]. */
async function dryLand (serv, x, z) {
  for (let r = 0; r <= DRY_LAND_REACH; r++) {
    for (let dx = -r; dx <= r; dx++) {
      for (let dz = -r; dz <= r; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue
        const top = await topBlock(serv, x + dx, z + dz)
        if (top && !NOT_GROUND.test(top.name) && top.boundingBox === 'block') return [x + dx, top.position.y + 1, z + dz]
      }
    }
  }
  throw new Error(`no dry land within ${DRY_LAND_REACH} blocks of (${x}, ${z})`)
}

/** The highest block of column (x, z) that is not air or a plant one walks through. */
async function topBlock (serv, x, z) {
  for (let y = TERRAIN_TOP; y > 0; y--) {
    const block = await serv.overworld.getBlock(new Vec3(x, y - 1, z))
    if (block.boundingBox === 'block' || block.name === 'water' || block.name === 'lava') return block
  }
  return null
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

/** The spawn on dry land nearest its column ({x, z}, world blocks), at the same place within the block: [x, y, z]. */
async function dryLandSpawn (serv, { x, z }) {
  const [cx, y, cz] = await dryLand(serv, Math.floor(x), Math.floor(z))
  return [cx + x - Math.floor(x), y, cz + z - Math.floor(z)]
}

async function buildScenario (serv, scenario) {
  const stacksOf = stacksByPlayer(serv, scenario)
  const stateOf = (spec) => stateIdOf(serv.registry, spec)
  try {
    await buildParts(serv, scenario, [0, 0, 0], stateOf)
    for (const structure of scenario.structures ?? []) {
      const [x, z] = structure.at
      await buildParts(serv, structure, [x, await groundAbove(serv, x, z), z], stateOf)
    }
  } catch (e) {
    throw new Error(`scenario ${scenario.name}: ${e.message}`)
  }
  const { facing } = scenario.spawn
  const [x, y, z] = scenario.spawn.on_surface ? await dryLandSpawn(serv, scenario.spawn) : [scenario.spawn.x, scenario.spawn.y, scenario.spawn.z]
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
    const stacks = stacksOf(player._client.username) // player.username is set after 'newPlayer'
    if (stacks.length && !returning(serv, player)) player.once('spawned', () => giveStacks(serv, player, stacks))
  })
}

module.exports = { buildScenario, dryLandSpawn }
