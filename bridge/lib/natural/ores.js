'use strict'
// Ores in veins by depth, as the game places them since 1.18: each kind tries a number of veins
// a chunk, each at a height drawn from a triangle (most at the middle of its range) or evenly,
// and replaces stone (with the ore) or deepslate (with its deepslate ore) only.
const { Vec3 } = require('vec3')
const { chunkRandom } = require('./noise')

// [ore, veins a chunk, blocks a vein, lowest y, highest y, spread]
const VEINS = [
  ['coal_ore', 24, 14, 0, 128, 'triangle'],
  ['iron_ore', 10, 9, -24, 56, 'triangle'],
  ['iron_ore', 10, 4, -64, 72, 'even'],
  ['copper_ore', 16, 10, -16, 112, 'triangle'],
  ['gold_ore', 4, 9, -64, 32, 'triangle'],
  ['redstone_ore', 6, 8, -64, 15, 'even'],
  ['lapis_ore', 2, 7, -32, 32, 'triangle'],
  ['diamond_ore', 7, 5, -144, 16, 'triangle'],
  ['gravel', 6, 24, 0, 120, 'even'],
  ['dirt', 6, 24, 0, 160, 'even']
]
const STEPS = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]

/** Writes chunk (chunkX, chunkZ)'s veins into `chunk`, whose column tops are `tops[x * 16 + z]`. */
function placeOres (seed, chunk, chunkX, chunkZ, states, minY, tops) {
  const random = chunkRandom(seed, 'ores', chunkX, chunkZ)
  const stone = states.stone
  const deepslate = states.deepslate
  const p = new Vec3(0, 0, 0)
  for (const [ore, veins, size, low, high, spread] of VEINS) {
    const plain = states[ore]
    const deep = states[`deepslate_${ore}`] ?? plain
    if (plain === null) continue
    for (let v = 0; v < veins; v++) {
      const draw = spread === 'triangle' ? (random() + random()) / 2 : random()
      p.x = Math.floor(random() * 16); p.z = Math.floor(random() * 16); p.y = Math.floor(low + draw * (high - low))
      for (let b = 0; b < size; b++) {
        if (p.y > minY && p.y < tops[p.x * 16 + p.z]) {
          const here = chunk.getBlockStateId(p)
          if (here === stone) chunk.setBlockStateId(p, plain)
          else if (here === deepslate && deepslate !== null) chunk.setBlockStateId(p, deep)
        }
        const [dx, dy, dz] = STEPS[Math.floor(random() * 6)]
        p.x = Math.min(15, Math.max(0, p.x + dx)); p.y += dy; p.z = Math.min(15, Math.max(0, p.z + dz))
      }
    }
  }
}

module.exports = { placeOres }
