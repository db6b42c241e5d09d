'use strict'
// Breaking a block with the bot's own hands (or held tool), waiting until it is done.
const { HelperError } = require('./errors')
const { withTimeout } = require('./waiting')
const { targetBlock, checkReach, fmt } = require('./target')
const { vec } = require('./state')
const { Vec3 } = require('vec3')

// Hand-digging stone takes ~7.5 s in survival; obsidian far longer, which we do not wait for.
const DIG_TIMEOUT_MS = 15000

/**
 * @param {{forward?, right?, up?, x?, y?, z?, avoid?: number[][]}} args `avoid`: world cells never
 * dug (the goal's build: mc-dig sends its cells; a caller with none to keep may leave it out).
 */
async function dig (bot, args) {
  const pos = targetBlock(bot, args)
  const block = bot.blockAt(pos, false)
  if (!block) throw new HelperError('refused', `block ${fmt(pos)} is not loaded`)
  if ((args.avoid ?? []).some(([x, y, z]) => pos.equals(new Vec3(x, y, z)))) {
    throw new HelperError('refused', `${block.name} at ${fmt(pos)} is a cell of the goal's build: not dug (the goal builds it)`)
  }
  if (block.boundingBox === 'empty') throw new HelperError('refused', `nothing solid to dig at ${fmt(pos)} (${block.name})`)
  checkReach(bot, pos)
  if (!bot.canDigBlock(block) || block.hardness === null) throw new HelperError('refused', `${block.name} at ${fmt(pos)} cannot be dug`)
  await withTimeout(bot.dig(block, true), DIG_TIMEOUT_MS, `digging ${block.name}`, () => bot.stopDigging())
  const now = bot.blockAt(pos, false)?.name ?? null
  return { block: block.name, position: vec(pos), gone: now !== block.name, now }
}

module.exports = { dig }
