'use strict'
// Digging a 1-wide, 2-high passage forward along the facing, walking into each cleared cell.
// Cells already free are walked through, not dug. Offsets are egocentric [forward, right, up]
// in blocks from the feet block (frame.js); the report's positions are world blocks.
const { FORWARD } = require('./frame')
const { vec } = require('./state')
const { tidy } = require('./numbers')
const { digAlong } = require('./digging')
const { required } = require('./errors')

// the footing ahead must hold; head first: what falls from above lands in the feet cell, still to dig
const PLAN = { footing: [1, 0, -1], missing: 'drop_ahead', cells: [[1, 0, 1], [1, 0, 0]], rise: 0 }

/** @param {{blocks: number}} args cells to advance */
async function tunnel (bot, args) {
  const { blocks } = required(args, 'blocks')
  const { facing, start, end, dug, run } = await digAlong(bot, blocks, PLAN)
  const [fx, fz] = FORWARD[facing]
  return {
    facing,
    start,
    end: vec(end),
    distance: tidy((end.x - start.x) * fx + (end.z - start.z) * fz),
    blocks_dug: dug.length,
    dug,
    ...run
  }
}

module.exports = { tunnel, PLAN }
