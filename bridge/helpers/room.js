'use strict'
// Room for a body: whether a block can be stood on. World blocks: x east, y up, z south.

const FLUIDS = new Set(['water', 'lava'])
// The cells above a block a body standing on it fills: the feet and the head.
const BODY_ABOVE = [1, 2]

/** Whether the two cells above `pos` are free for a body (air or a plant, not a fluid): a block to stand on. */
function roomAbove (bot, pos) {
  return BODY_ABOVE.every((dy) => {
    const cell = bot.blockAt(pos.offset(0, dy, 0), false)
    return cell !== null && cell.boundingBox === 'empty' && !FLUIDS.has(cell.name)
  })
}

module.exports = { roomAbove, FLUIDS }
