'use strict'
// Fixes for Mineflayer 4.39 behaviour that the agent runs into, each small and named: a plugin
// every bot loads as it is created (connection.js), after Mineflayer's own.

/**
 * One placement in flight per cell. The server's answer to a block_place names no request, so
 * Mineflayer settles a refused placement on that answer only while it is the one placement in
 * flight to the cell; with two, neither settles, and both wait out their 5 s. Pathfinder makes
 * the second: a towering jump's click into the cell its feet still fill is refused, and a path
 * reset meanwhile (any block changing near the path) frees its place lock, so it clicks the
 * same cell again before the first answer is in. On a busy machine, where the answer comes
 * late, each step of a tower took 10 s instead of 1. A second call for a cell already awaiting
 * an answer sends nothing and shares the first one's outcome (placed, or refused and tried
 * again by its caller).
 */
function onePlacementPerCell (bot) {
  const inFlight = new Map() // the cell's position as text -> the placement awaiting its answer
  for (const name of ['placeBlock', '_placeBlockWithOptions']) {
    const place = bot[name]
    bot[name] = (referenceBlock, faceVector, ...options) => {
      const key = referenceBlock.position.plus(faceVector).toString()
      if (!inFlight.has(key)) {
        inFlight.set(key, place(referenceBlock, faceVector, ...options).finally(() => inFlight.delete(key)))
      }
      return inFlight.get(key)
    }
  }
}

function mineflayerFixes (bot) {
  onePlacementPerCell(bot)
}

module.exports = { mineflayerFixes }
