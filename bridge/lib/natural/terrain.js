'use strict'
// The shape of the land and its biomes, as pure functions of the world column (x, z), so a
// chunk can ask about its neighbours' columns (a tree's roots) without generating them.
// World blocks: x east, z south, y up; the surface is the y of a column's top solid block.
const { noise2 } = require('./noise')

// Water fills every column below this level (the game's sea level is 63: its top water block
// is at y 62).
const SEA_LEVEL = 62

// Biome names as the game spells them (registry.biomesByName).
const BIOMES = ['ocean', 'beach', 'desert', 'plains', 'forest', 'birch_forest', 'taiga']

/** The land of world `seed`: surface(x, z) -> y, and biome(x, z) -> one of BIOMES. */
function terrain (seed) {
  const continent = noise2(seed, 'continent')
  const hills = noise2(seed, 'hills')
  const steep = noise2(seed, 'steep')
  const detail = noise2(seed, 'detail')
  const heat = noise2(seed, 'heat')
  const wet = noise2(seed, 'wet')

  // Plains near sea level, rolling hills, and now and then steep ground (steep noise high).
  function surface (x, z) {
    const c = continent(x / 512, z / 512)
    const h = hills(x / 160, z / 160)
    const s = Math.max(0, steep(x / 96, z / 96) - 0.35) * 2.5
    const lift = Math.max(0, h) * (10 + 22 * s)
    return Math.round(SEA_LEVEL + 3 + c * 9 + lift + detail(x / 24, z / 24) * 2)
  }

  function biome (x, z) {
    const y = surface(x, z)
    if (y < SEA_LEVEL) return 'ocean'
    if (y <= SEA_LEVEL + 1) return 'beach'
    const t = heat(x / 640, z / 640)
    const w = wet(x / 480, z / 480)
    if (t > 0.3 && w < 0.1) return 'desert'
    if (t < -0.3) return 'taiga'
    if (w > 0.3) return t > 0.05 ? 'birch_forest' : 'forest'
    if (w > -0.15) return 'forest'
    return 'plains'
  }

  return { surface, biome }
}

module.exports = { terrain, SEA_LEVEL, BIOMES }
