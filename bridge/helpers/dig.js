'use strict'
// Breaking a block with the bot's own hands (or held tool), waiting until it is done.
const { HelperError } = require('./errors')
const { withTimeout } = require('./waiting')
const { targetBlock, checkReach, fmt } = require('./target')
const { vec } = require('./state')

// Hand-digging stone takes ~7.5 s in survival; obsidian far longer, which we do not wait for.
const DIG_TIMEOUT_MS = 15000

async function dig (bot, args) {
  const pos = targetBlock(bot, args)
  const block = bot.blockAt(pos, false)
  if (!block) throw new HelperError('refused', `block ${fmt(pos)} is not loaded`)
  if (block.boundingBox === 'empty') throw new HelperError('refused', `nothing solid to dig at ${fmt(pos)} (${block.name})`)
  checkReach(bot, pos)
  if (!bot.canDigBlock(block) || block.hardness === null) throw new HelperError('refused', `${block.name} at ${fmt(pos)} cannot be dug`)
  await withTimeout(bot.dig(block, true), DIG_TIMEOUT_MS, `digging ${block.name}`, () => bot.stopDigging())
  const now = bot.blockAt(pos, false)?.name ?? null
  return { block: block.name, position: vec(pos), gone: now !== block.name, now }
}

module.exports = { dig }
