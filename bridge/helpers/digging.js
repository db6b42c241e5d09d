'use strict'
// Digging a way through, step by step (dig-stairs.js, tunnel.js, burrow.js): a frame held at one facing,
// the fluid check before every dig, a dig checked afterwards, and a step into the cleared cell.
// Egocentric offsets are {forward, right, up} in whole blocks from the feet block (frame.js);
// positions are world blocks.
const { withTimeout } = require('./waiting')
const { reader } = require('./blocks')
const { frameOf, feetBlock } = require('./frame')
const { yawToDeg, yawFromDeg, yawOfFacing, facingOf } = require('./angles')
const { vec } = require('./state')
const { Stop, runSteps } = require('./stepwise')
const { settle, routeOf, steer } = require('./steering')

// By hand stone takes 7.5 s; a block slower than this with the best tool carried is not dug
// (obsidian by hand: 250 s). The tools' Python side sizes its call timeouts from it.
const MAX_DIG_S = 10
// The server confirms a finished dig within a tick or two; past this the dig is stuck.
const DIG_SLACK_MS = 2000
// Walking into the next cell takes ~0.3 s, with a jump or a drop under 1 s; past this it is stuck.
const STEP_MS = 3000
// Digging a block lets in what is next to it: these hazard kinds (blocks.js) flow.
const FLUIDS = new Set(['lava', 'water'])
const NEIGHBOURS = [[0, -1, 0], [0, 1, 0], [-1, 0, 0], [1, 0, 0], [0, 0, -1], [0, 0, 1]]

/**
 * `count` digging steps along the facing the bot has now: each one checks the footing at
 * `plan.footing` (else stops with `plan.missing`), clears `plan.cells` in order, and steps into
 * the cell forward 1, `plan.rise` up. Offsets are [forward, right, up].
 * @returns {{facing, start, end, dug, run}} `run` as stepwise.runSteps reports it; `dug` the blocks dug, in order
 */
async function digAlong (bot, count, plan) {
  const facing = facingOf(yawToDeg(bot.entity.yaw))
  const start = bot.entity.position.clone()
  const dug = []
  const run = await runSteps(bot, count, async () => { dug.push(...await digStep(bot, facing, plan)) })
  if (run.stop_reason !== 'disconnected') await faceAgain(bot, facing)
  return { facing, start: vec(start), end: bot.entity.position, dug, run }
}

/**
 * One digging step along `facing`: checks the footing at `plan.footing` (else a Stop with
 * `plan.missing`), clears `plan.cells` in order and steps into the cell forward 1, `plan.rise` up.
 * `setFooting(pos)`, when given, is tried first where the footing is open air (a cave below).
 * @returns the blocks dug, in order
 */
async function digStep (bot, facing, plan, setFooting = null) {
  const frame = frameAlong(bot, facing)
  const footing = frame.toWorld(...plan.footing)
  if (setFooting && !fluidIn(bot, footing) && bot.blockAt(footing, false)?.boundingBox === 'empty') await setFooting(footing)
  checkFooting(bot, frame, footing, plan.missing)
  const dug = []
  for (const cell of plan.cells) {
    const block = await clear(bot, frame, frame.toWorld(...cell))
    if (block) dug.push(block)
  }
  await enter(bot, frame, plan.rise)
  return dug
}

/** The egocentric frame at the feet block, held at `facing` however the head turned to dig. */
function frameAlong (bot, facing) {
  // frameOf reads only the yaw and the position: give it the facing's yaw and the feet block
  return frameOf({ entity: { yaw: yawFromDeg(yawOfFacing(facing)), position: feetBlock(bot) } })
}

/** "forward 1, up 2": an egocentric offset for a message. */
function say ({ forward, right, up }) {
  return [['forward', forward], ['right', right], ['up', up]].filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ') || 'the feet block'
}

/** A block as reported: name, world position and egocentric offset in `frame`. */
function record (frame, name, pos) {
  return { block: name, position: vec(pos), ...frame.toEgo(pos) }
}

/** The first lava or water next to `pos` (what digging `pos` would let in), or null. */
function fluidNextTo (bot, frame, pos) {
  const info = reader(bot)
  for (const [dx, dy, dz] of NEIGHBOURS) {
    const p = pos.offset(dx, dy, dz)
    const found = info(p)
    if (FLUIDS.has(found.hazard)) return record(frame, found.name, p)
  }
  return null
}

/** Whether the cell at `pos` itself holds lava or water. */
function fluidIn (bot, pos) {
  return FLUIDS.has(reader(bot)(pos).hazard)
}

function refuseFluid (fluid, what) {
  throw new Stop('fluid_ahead', `${fluid.block} at ${say(fluid)}: ${what}`, { fluid })
}

/** The block at `pos` must be solid to stand on; else stops with `missing` (lava or water there: fluid_ahead). */
function checkFooting (bot, frame, pos, missing) {
  const block = bot.blockAt(pos, false)
  const where = say(frame.toEgo(pos))
  if (!block) throw new Stop('blocked', `the block at ${where} is not loaded`)
  if (block.boundingBox === 'block') return
  if (fluidIn(bot, pos)) refuseFluid(record(frame, block.name, pos), 'it would be the footing')
  throw new Stop(missing, `nothing to stand on at ${where} (${block.name})`)
}

/** Puts in the hand what digs `block` fastest of what the bot carries (the bare hand when nothing helps). */
async function equipFastest (bot, block) {
  const best = fastest(bot, block)
  if (best && best !== bot.heldItem) await bot.equip(best, 'hand')
}

/** What of the hand and the inventory digs `block` fastest (null: the bare hand). */
function fastest (bot, block) {
  let best = bot.heldItem
  for (const item of bot.inventory.items()) if (digSeconds(bot, block, item) < digSeconds(bot, block, best)) best = item
  return best
}

/** Seconds to dig `block` with `item` in the hand (null: the bare hand), on the ground. */
function digSeconds (bot, block, item) {
  return block.digTime(item?.type ?? null, false, false, false, item?.enchants ?? [], bot.entity.effects) / 1000
}

/**
 * Clears the cell at `pos`: digs it when solid, after refusing to let in lava or water.
 * @returns the dug block's record, or null when the cell was already passable
 */
async function clear (bot, frame, pos) {
  const block = bot.blockAt(pos, false)
  const where = say(frame.toEgo(pos))
  if (!block) throw new Stop('blocked', `the block at ${where} is not loaded`)
  if (block.boundingBox === 'empty') {
    if (fluidIn(bot, pos)) refuseFluid(record(frame, block.name, pos), 'the way is through it')
    return null // air or a plant: nothing to dig, nothing let in
  }
  const fluid = fluidNextTo(bot, frame, pos)
  if (fluid) refuseFluid(fluid, `digging ${block.name} at ${where} would let it in`)
  if (!block.diggable) throw new Stop('unbreakable', `${block.name} at ${where} cannot be dug`)
  await equipFastest(bot, block)
  const seconds = bot.digTime(block) / 1000
  if (seconds > MAX_DIG_S) throw new Stop('unbreakable', `${block.name} at ${where} would take ${seconds.toFixed(1)} s to dig with what the bot carries (limit ${MAX_DIG_S} s)`)
  // bot.dig rejects on a late confirmation too; reading the block again is what counts (a timeout stops the run)
  await withTimeout(bot.dig(block, true), seconds * 1000 + DIG_SLACK_MS, `digging ${block.name} at ${where}`, () => bot.stopDigging())
    .catch((err) => { if (err.code === 'timeout') throw err })
  const now = bot.blockAt(pos, false)
  if (now?.boundingBox !== 'empty') throw new Stop('blocked', `${block.name} at ${where} is still there after digging (now ${now?.name ?? 'unloaded'})`)
  return record(frame, block.name, pos)
}

/**
 * Walks into the cell forward 1 and `rise` (-1, 0 or 1) up in `frame` (climbing or dropping into
 * it), stops at its centre and checks the feet are really there: lower is a fall, anywhere else blocked.
 */
async function enter (bot, frame, rise) {
  const cell = frame.toWorld(1, 0, rise)
  await steer(bot, routeOf(frame, [0, rise]), Date.now() + STEP_MS)
  await settle(bot)
  const feet = feetBlock(bot)
  if (feet.equals(cell)) return
  const at = `(${feet.x}, ${feet.y}, ${feet.z})`
  if (feet.y < cell.y) throw new Stop('fell', `fell to ${at} instead of stepping into (${cell.x}, ${cell.y}, ${cell.z})`)
  throw new Stop('blocked', `could not step into (${cell.x}, ${cell.y}, ${cell.z}); the feet are at ${at}`)
}

/**
 * The tools one of which the blocks of `kind` need to drop anything, cheapest first (item ids
 * run wooden, stone, golden, iron, diamond, netherite), when the bot carries none of them for any
 * of its blocks; null when one can be harvested.
 */
function toolLacking (bot, kind) {
  const blocks = [kind.id].flat().map((id) => bot.registry.blocks[id])
  const held = new Set(bot.inventory.items().map((item) => item.type))
  const needs = blocks.map((b) => b.harvestTools && Object.keys(b.harvestTools).map(Number))
  if (needs.some((tools) => !tools || tools.some((id) => held.has(id)))) return null
  return [...new Set(needs.flat())].sort((a, b) => a - b).map((id) => bot.registry.items[id].name)
}

/** toolLacking's tools in words: "wooden_pickaxe, stone_pickaxe or better". */
function toolsSaid (tools) {
  return tools.length > 2 ? `${tools[0]}, ${tools[1]} or better` : tools.join(' or ')
}

/** Turns back to `facing`, level, so the bot ends facing the way it was sent. */
function faceAgain (bot, facing) {
  return bot.look(yawFromDeg(yawOfFacing(facing)), 0, true)
}

module.exports = { digAlong, digStep, frameAlong, clear, toolLacking, toolsSaid, fastest, digSeconds, MAX_DIG_S }
