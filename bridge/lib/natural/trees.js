'use strict'
// Trees by biome: oak, birch and spruce, trunks 4-7 high under leaves. A chunk writes the parts
// of every tree whose trunk stands in it or in one of its 8 neighbours (leaves reach 2 blocks
// out), so a tree across a chunk border comes out whole whichever chunk is made first.
const { chunkRandom } = require('./noise')

// Tree trunks a chunk's biome tries to grow (a fraction is a chance of one more).
const PER_CHUNK = { forest: 9, birch_forest: 9, taiga: 7, plains: 0.5 }
// The species a biome grows: [kind, share] in turn, the last taking the rest.
const SPECIES = { forest: [['birch', 0.2], ['oak', 1]], birch_forest: [['birch', 1]], taiga: [['spruce', 1]],
  plains: [['oak', 1]] }
// Trunk heights (blocks): the least and how many more it may have.
const TRUNK = { oak: [4, 3], birch: [5, 3], spruce: [5, 3] }

/** The trees whose trunks stand in chunk (chunkX, chunkZ): [{x, y, z, kind, height, random}],
 * world blocks, y the trunk's lowest cell; `grows(x, z)` says whether a column may hold one. */
function treesIn (seed, land, chunkX, chunkZ, grows) {
  const random = chunkRandom(seed, 'trees', chunkX, chunkZ)
  const tries = PER_CHUNK[land.biome(chunkX * 16 + 8, chunkZ * 16 + 8)] ?? 0
  const count = Math.floor(tries) + (random() < tries % 1 ? 1 : 0)
  const trees = []
  for (let i = 0; i < count; i++) {
    const x = chunkX * 16 + Math.floor(random() * 16)
    const z = chunkZ * 16 + Math.floor(random() * 16)
    const pick = random()
    const extra = random()
    const species = SPECIES[land.biome(x, z)]
    if (!species || !grows(x, z)) continue
    const kind = species.find(([, share]) => pick < share)?.[0] ?? species[species.length - 1][0]
    const [least, more] = TRUNK[kind]
    trees.push({ x, y: land.surface(x, z) + 1, z, kind, height: least + Math.floor(extra * more) })
  }
  return trees
}

/** Each cell of `tree` as [dx, dy, dz, part] ('log' or 'leaves'), from the trunk's lowest cell. */
function cellsOf (tree) {
  const cells = []
  const h = tree.height
  for (let dy = 0; dy < h; dy++) cells.push([0, dy, 0, 'log'])
  const layer = (dy, radius, corners) => {
    for (let dx = -radius; dx <= radius; dx++) {
      for (let dz = -radius; dz <= radius; dz++) {
        const corner = Math.abs(dx) === radius && Math.abs(dz) === radius
        if (radius > 0 && corner && !corners(dx, dz)) continue
        cells.push([dx, dy, dz, 'leaves'])
      }
    }
  }
  const hash = (dx, dy, dz) => ((tree.x * 31 + tree.z * 17 + dx * 7 + dy * 13 + dz * 5) & 7) < 4
  if (tree.kind === 'spruce') {
    layer(h, 0, () => false)
    layer(h - 1, 1, () => false)
    for (let dy = h - 2, r = 1; dy >= 2; dy--, r = 3 - r) layer(dy, r, () => r === 1)
  } else {
    for (const dy of [h - 3, h - 2]) layer(dy, 2, (dx, dz) => hash(dx, dy, dz))
    layer(h - 1, 1, (dx, dz) => hash(dx, h - 1, dz))
    layer(h, 1, () => false)
  }
  return cells
}

module.exports = { treesIn, cellsOf }
