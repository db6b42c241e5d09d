'use strict'
// A blueprint's cells as the world holds them, in one call: each cell's block asked and what is
// there, compared as the blueprint check compares (blockstate.js: name and chosen properties).
// The blueprint check judges from them (goal.js); after a run they go into the trace, where the
// report draws the blueprint beside the world (agent/session/build_seen.py).
const { Vec3 } = require('vec3')
const { parseSpec, stateAt, sameBlock, specOf } = require('./blockstate')

/** [{at: [x, y, z], wanted, held: spec or null (not loaded), right}], one per cell of {anchor, blocks}. */
function heldCells (bot, { anchor, blocks }) {
  return blocks.map(({ at: [dx, dy, dz], block }) => {
    const at = [anchor[0] + dx, anchor[1] + dy, anchor[2] + dz]
    const now = stateAt(bot, new Vec3(...at))
    return { at, wanted: block, held: now && specOf(now), right: sameBlock(now, parseSpec(block)) }
  })
}

/** The action: {cells} for a blueprint {anchor, blocks} (agent/checks' Plan, validated there). */
function readCells (bot, plan) {
  return { cells: heldCells(bot, plan) }
}

module.exports = { heldCells, readCells }
