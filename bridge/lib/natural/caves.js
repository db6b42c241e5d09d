'use strict'
// Caves carved by 3D noise: wide "cheese" chambers and long "spaghetti" tunnels, some reaching
// the surface. The noise is sampled on a grid every STEP blocks and interpolated between, as
// the game does, so a chunk costs a few thousand noise calls, not one per cell.
const { noise3 } = require('./noise')

const STEP = 4
const CORNERS = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]]

/** Where world `seed` has caves: a value > 0 inside one. `inChunk(chunkX, chunkZ, minY, maxY)`
 * gives it for a chunk's cells, `at(x, y, z)` for one world cell, both interpolated alike. */
function caves (seed) {
  const cheese = noise3(seed, 'cheese')
  const tunnelA = noise3(seed, 'tunnel-a')
  const tunnelB = noise3(seed, 'tunnel-b')
  const open = (x, y, z) => Math.max(cheese(x / 56, y / 32, z / 56) - 0.6,
    0.05 - Math.max(Math.abs(tunnelA(x / 80, y / 44, z / 80)), Math.abs(tunnelB(x / 80, y / 44, z / 80))))

  /** For chunk cells: (x, y, z) local x, z in 0..15 and world y in [minY, maxY] -> open value. */
  function inChunk (chunkX, chunkZ, minY, maxY) {
    const y0 = Math.floor(minY / STEP) * STEP
    const ny = Math.ceil((maxY - y0) / STEP) + 1
    const n = 16 / STEP + 1
    const grid = new Float32Array(n * n * ny)
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < n; k++) {
        for (let j = 0; j < ny; j++) grid[(i * n + k) * ny + j] = open(chunkX * 16 + i * STEP, y0 + j * STEP, chunkZ * 16 + k * STEP)
      }
    }
    return (x, y, z) => {
      const fx = x / STEP; const fy = (y - y0) / STEP; const fz = z / STEP
      const i = Math.min(Math.floor(fx), n - 2); const j = Math.min(Math.floor(fy), ny - 2); const k = Math.min(Math.floor(fz), n - 2)
      const u = fx - i; const v = fy - j; const w = fz - k
      const at = (a, b, c) => grid[((i + a) * n + (k + c)) * ny + j + b]
      const along = (b, c) => at(0, b, c) * (1 - u) + at(1, b, c) * u
      const low = along(0, 0) * (1 - w) + along(0, 1) * w
      const high = along(1, 0) * (1 - w) + along(1, 1) * w
      return low * (1 - v) + high * v
    }
  }

  /** The interpolated value at one world cell, as inChunk gives it (a tree's roots ask). */
  function at (x, y, z) {
    const x0 = Math.floor(x / STEP) * STEP; const y0 = Math.floor(y / STEP) * STEP; const z0 = Math.floor(z / STEP) * STEP
    const u = (x - x0) / STEP; const v = (y - y0) / STEP; const w = (z - z0) / STEP
    let sum = 0
    for (const [a, b, c] of CORNERS) {
      sum += open(x0 + a * STEP, y0 + b * STEP, z0 + c * STEP) * (a ? u : 1 - u) * (b ? v : 1 - v) * (c ? w : 1 - w)
    }
    return sum
  }

  return { inChunk, at }
}

module.exports = { caves }
