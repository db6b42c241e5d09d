'use strict'
// Digging a 1-wide, 2-high passage forward along the facing, walking into each cleared cell.
// Cells already free are walked through, not dug. Offsets are egocentric [forward, right, up]
// in blocks from the feet block (frame.js); the report's positions are world blocks.
const { HelperError } = require('./errors')
const { yawToDeg, facingOf } = require('./angles')
const { FORWARD } = require('./frame')
const { vec } = require('./state')
const { tidy } = require('./numbers')
const { runSteps } = require('./stepwise')
const { frameAlong, checkFooting, clear, enter, faceAgain } = require('./digging')

const MAX_BLOCKS = 32
// head first: what falls from above lands in the feet cell, still to dig
const CELLS = [[1, 0, 1], [1, 0, 0]]

/** @param {{blocks?: number}} args cells to advance */
async function tunnel (bot, { blocks = 1 }) {
  if (!Number.isInteger(blocks) || blocks < 1 || blocks > MAX_BLOCKS) throw new HelperError('bad_args', `blocks must be an integer from 1 to ${MAX_BLOCKS}`)
  const facing = facingOf(yawToDeg(bot.entity.yaw))
  const start = bot.entity.position.clone()
  const dug = []
  const run = await runSteps(bot, blocks, async () => {
    const frame = frameAlong(bot, facing)
    checkFooting(bot, frame, frame.toWorld(1, 0, -1), 'drop_ahead')
    for (const cell of CELLS) {
      const block = await clear(bot, frame, frame.toWorld(...cell))
      if (block) dug.push(block)
    }
    await enter(bot, frame, 0)
  })
  if (run.stop_reason !== 'disconnected') await faceAgain(bot, facing)
  const end = bot.entity.position
  const [fx, fz] = FORWARD[facing]
  return {
    facing,
    start: vec(start),
    end: vec(end),
    distance: tidy((end.x - start.x) * fx + (end.z - start.z) * fz),
    blocks_dug: dug.length,
    dug,
    ...run
  }
}

module.exports = { tunnel }
