'use strict'
// Seeded noise for the natural generator: each field is its own simplex noise on its own
// PRNG (alea) seeded by the world seed and the field's name, so one field never shifts another.
const { createNoise2D, createNoise3D } = require('simplex-noise')
const alea = require('alea')

// Simplex noise is 0 at its lattice's origin whatever the PRNG: each field is shifted by a
// seeded offset (in noise units), else world (0, 0) would be the same land in every seed.
const SHIFT = 10000

/** A 2D field (x, z) -> [-1, 1] for the world `seed` and the field `name`. */
function noise2 (seed, name) {
  const random = alea(`${seed}:${name}`)
  const field = createNoise2D(random)
  const [sx, sz] = [random() * SHIFT, random() * SHIFT]
  return (x, z) => field(x + sx, z + sz)
}

/** A 3D field (x, y, z) -> [-1, 1]. */
function noise3 (seed, name) {
  const random = alea(`${seed}:${name}`)
  const field = createNoise3D(random)
  const [sx, sy, sz] = [random() * SHIFT, random() * SHIFT, random() * SHIFT]
  return (x, y, z) => field(x + sx, y + sy, z + sz)
}

/** A PRNG () -> [0, 1) for one chunk's choices (trees, veins): the same for the same chunk. */
function chunkRandom (seed, what, chunkX, chunkZ) {
  return alea(`${seed}:${what}:${chunkX}:${chunkZ}`)
}

module.exports = { noise2, noise3, chunkRandom }
