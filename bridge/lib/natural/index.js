'use strict'
// The natural generator for flying-squid: `generation: {name: 'natural', options: {seed}}`
// (bridge/server.js resolves the name to this folder). Land of plains, hills and steep ground;
// biomes (ocean, beach, desert, plains, oak and birch forest, spruce taiga) with their surface;
// grass over 3-4 dirt over stone (deepslate below y 0 where the version has it), bedrock at the
// bottom; water up to sea level; caves, some open at the surface, with lava deep down; ores in
// veins by depth; trees by biome. Deterministic per chunk for a seed: flying-squid calls
// generate(chunkX, chunkZ) synchronously, in any order.
// World blocks: x east, z south, y up.
const { Vec3 } = require('vec3')
const { blockStates } = require('./blocks')
const { caves } = require('./caves')
const { noise2 } = require('./noise')
const { placeOres } = require('./ores')
const { SEA_LEVEL, terrain } = require('./terrain')
const { cellsOf, treesIn } = require('./trees')

// Caves below this many blocks over the world's bottom are filled with lava (1.18+: y -54).
const LAVA_DEPTH = 10
// Columns under water keep this much ground above any cave (flying-squid has no flowing water).
const SEA_FLOOR = 8
// Sky light is set above the ground up to here, as flying-squid's own generators do.
const LIGHT_TOP = 256

function natural ({ registry, seed }) {
  const Chunk = require('prismarine-chunk')(registry)
  const states = blockStates(registry)
  const land = terrain(seed)
  const hollow = caves(seed)
  const dirtDepth = noise2(seed, 'dirt-depth')
  const plants = noise2(seed, 'plants')
  const biomeIds = Object.fromEntries(['ocean', 'beach', 'desert', 'plains', 'forest', 'birch_forest', 'taiga']
    .map((name) => [name, (registry.biomesByName[name] ?? registry.biomesByName.plains).id]))
  // A tree needs grass under it and no cave at its roots.
  const grows = (x, z) => {
    const y = land.surface(x, z)
    return y > SEA_LEVEL + 1 && hollow.at(x, y, z) <= 0 && hollow.at(x, y - 1, z) <= 0
  }

  return function generate (chunkX, chunkZ) {
    const chunk = new Chunk()
    const minY = chunk.minY ?? 0
    const tops = new Int32Array(256)
    const p = new Vec3(0, 0, 0)
    let highest = SEA_LEVEL
    for (let x = 0; x < 16; x++) {
      for (let z = 0; z < 16; z++) {
        tops[x * 16 + z] = land.surface(chunkX * 16 + x, chunkZ * 16 + z)
        highest = Math.max(highest, tops[x * 16 + z])
      }
    }
    const open = hollow.inChunk(chunkX, chunkZ, minY, highest)
    for (let x = 0; x < 16; x++) {
      for (let z = 0; z < 16; z++) {
        const wx = chunkX * 16 + x
        const wz = chunkZ * 16 + z
        column(chunk, p.set(x, 0, z), wx, wz, tops[x * 16 + z], minY, open)
      }
    }
    placeOres(seed, chunk, chunkX, chunkZ, states, minY, tops)
    placeTrees(chunk, chunkX, chunkZ)
    setBiomes(chunk, chunkX, chunkZ, minY)
    return chunk
  }

  /** One column, bottom to top: bedrock, stone, dirt, its surface block, water, a plant, the
   * caves through it, and sky light above. */
  function column (chunk, p, wx, wz, top, minY, open) {
    const biome = land.biome(wx, wz)
    const soil = 3 + (dirtDepth(wx / 16, wz / 16) > 0 ? 1 : 0)
    const floor = biome === 'ocean' || biome === 'beach'
    const [surface, under] = biome === 'desert' ? [states.sand, states.sand]
      : floor ? [top < SEA_LEVEL - 4 ? states.gravel : states.sand, states.sand] : [states.grass_block, states.dirt]
    const caveTop = floor ? top - SEA_FLOOR : top
    for (let y = minY; y <= top; y++) {
      p.y = y
      let state
      if (y === minY || (y < minY + 4 && hash(wx, y, wz) < (minY + 4 - y) / 5)) state = states.bedrock
      else if (y > minY + 2 && y <= caveTop && open(p.x, y, p.z) > 0) state = y < minY + LAVA_DEPTH ? states.lava : null
      else if (y === top) state = surface
      else if (y > top - soil) state = under
      else if (biome === 'desert' && y > top - soil - 3) state = states.sandstone
      else state = y < 0 && states.deepslate !== null ? states.deepslate : states.stone
      if (state !== null) chunk.setBlockStateId(p, state)
    }
    for (let y = top + 1; y <= SEA_LEVEL; y++) chunk.setBlockStateId(p.set(p.x, y, p.z), states.water)
    const plant = plantOn(biome, wx, wz)
    if (plant !== null && top > SEA_LEVEL && chunk.getBlockStateId(p.set(p.x, top, p.z)) === surface) {
      chunk.setBlockStateId(p.set(p.x, top + 1, p.z), plant)
    }
    for (let y = top + 1; y < LIGHT_TOP; y++) chunk.setSkyLight(p.set(p.x, y, p.z), 15)
  }

  function plantOn (biome, wx, wz) {
    const chance = { plains: 0.2, forest: 0.1, birch_forest: 0.1, taiga: 0.05, desert: 0.02 }[biome] ?? 0
    if (hash(wx, 0, wz) >= chance || plants(wx / 8, wz / 8) < -0.2) return null
    return biome === 'desert' ? states.dead_bush : states.short_grass
  }

  /** The parts in this chunk of every tree rooted in it or its 8 neighbours: a log replaces
   * anything, leaves only fill air, in one fixed order, so a shared cell comes out the same. */
  function placeTrees (chunk, chunkX, chunkZ) {
    const p = new Vec3(0, 0, 0)
    for (let dx = -1; dx <= 1; dx++) {
      for (let dz = -1; dz <= 1; dz++) {
        for (const tree of treesIn(seed, land, chunkX + dx, chunkZ + dz, grows)) {
          const log = states[`${tree.kind}_log`]
          const leaves = states[`${tree.kind}_leaves`]
          for (const [cx, cy, cz, part] of cellsOf(tree)) {
            const x = tree.x + cx - chunkX * 16
            const z = tree.z + cz - chunkZ * 16
            if (x < 0 || x > 15 || z < 0 || z > 15) continue
            p.set(x, tree.y + cy, z)
            if (part === 'log') chunk.setBlockStateId(p, log)
            else if (chunk.getBlockStateId(p) === states.air || chunk.getBlockStateId(p) === states.short_grass) {
              chunk.setBlockStateId(p, leaves)
            }
          }
        }
      }
    }
  }

  /** Biomes by 4x4x4 cell (the game's own grain), each column's at the cell's centre. */
  function setBiomes (chunk, chunkX, chunkZ, minY) {
    const p = new Vec3(0, 0, 0)
    const top = minY + (chunk.worldHeight ?? 256)
    for (let x = 0; x < 16; x += 4) {
      for (let z = 0; z < 16; z += 4) {
        const id = biomeIds[land.biome(chunkX * 16 + x + 2, chunkZ * 16 + z + 2)]
        for (let y = minY; y < top; y += 4) chunk.setBiome(p.set(x, y, z), id)
      }
    }
  }
}

/** A number in [0, 1) fixed for a world cell: for choices that need no noise (bedrock, plants). */
function hash (x, y, z) {
  let h = (x * 374761393 + y * 668265263 + z * 2147483647) | 0
  h = Math.imul(h ^ (h >>> 13), 1274126177)
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296
}

module.exports = natural
