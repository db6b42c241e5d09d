'use strict'
// Digging a walkable staircase up or down along the facing, one step at a time, never the
// block underfoot. Offsets are egocentric [forward, right, up] in blocks from the feet block
// (frame.js); the report's positions are world blocks and its height is measured, not counted.
const { vec } = require('./state')
const { tidy } = require('./numbers')
const { digAlong } = require('./digging')
const { required } = require('./errors')

const PLANS = {
  // room to jump above the head, then the next step's head and feet cells (top first: what
  // falls from above lands in a cell still to dig); the step's own block is the footing
  up: { footing: [1, 0, 0], missing: 'blocked', cells: [[0, 0, 2], [1, 0, 2], [1, 0, 1]], rise: 1 },
  // the body passes through forward 1 at feet and head level on its way down into forward 1, down 1
  down: { footing: [1, 0, -2], missing: 'drop_ahead', cells: [[1, 0, 1], [1, 0, 0], [1, 0, -1]], rise: -1 }
}

/** @param {{direction: 'up'|'down', steps: number}} args */
async function digStairs (bot, args) {
  const { direction, steps } = required(args, 'direction', 'steps')
  const plan = PLANS[direction]
  const { facing, start, end, dug, run } = await digAlong(bot, steps, plan)
  return {
    direction,
    facing,
    start,
    end: vec(end),
    height_gained: tidy(end.y - start.y),
    blocks_dug: dug.length,
    dug,
    ...run
  }
}

module.exports = { digStairs, PLANS }
