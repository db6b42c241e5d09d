'use strict'
// Placing one cell in the state a blueprint asks (`oak_stairs[facing=east,half=top]`), as a
// player does: the state comes from the click, so the bot picks the block it clicks against,
// the face and the point on it, and where it stands (the placer's facing, a face it sees), the
// game's rules (lib/placing-rules.js) predicting what each click gives; then it uses the block
// when it must be open, and reads the cell back. A door's upper half comes with its lower one;
// a double slab is a slab placed into another. Positions are world blocks (x east, y up, z south).
const { Vec3 } = require('vec3')
const { goals } = require('mineflayer-pathfinder')
const rules = require('../lib/placing-rules')
const { parseSpec, stateAt, sameBlock, specOf } = require('./blockstate')
const { HelperError, required } = require('./errors')
const { walk, left } = require('./approach')
const { waitFor } = require('./waiting')
const { REACH, fmt } = require('./target')

// The server answers a click within a tick or two.
const ANSWER_MS = 3000
// Where the bot stands to place: its eyes within this of the cell's centre (under REACH, so
// that every face around the cell stays within reach of a click).
const STAND_REACH = 3.5
const EYE_HEIGHT = 1.62
// A player's body: 0.6 across, 1.8 high.
const BODY_HALF = 0.3
const BODY_HEIGHT = 1.8
// The bot stops anywhere within its cell, up to 0.3 from the centre: a stand for a facing lies
// behind the cell by more than it lies aside by this margin (the server reads the facing from
// where the placer stands), and a stand sees a face from at least this far in front of it.
const FACING_MARGIN = 0.6
const FACE_MARGIN = 0.5
// Points on a face the bot may click, along each of the face's two directions: the centre
// first, then the middles of the halves (the cursor decides a half, a hinge).
const ON_FACE = [0.5, 0.25, 0.75]
// Blocks a click opens or uses rather than places against.
const USED_WHEN_CLICKED = /(_door|_trapdoor|_fence_gate|chest|crafting_table|furnace|shulker_box|barrel)$/
const HORIZONTAL = ['north', 'east', 'south', 'west']

/**
 * A pathfinder goal: a cell to stand in, out of the block's own space and within reach of it,
 * from which the placer faces `facing` (null: any way) and sees the face `face` (a Vec3 the
 * face points along, of the block across it from `pos`; null: any).
 */
class GoalPlaceAs extends goals.Goal {
  constructor (pos, { facing = null, face = null, height = 1 }) {
    super()
    this.pos = pos
    this.facing = facing
    this.face = face
    this.height = height // the cells the block takes, upwards (2 for a door)
    this.ideal = facing ? pos.minus(new Vec3(...rules.FACES[facing]).scaled(2)) : pos
  }

  heuristic (node) {
    return Math.hypot(node.x - this.ideal.x, node.y - this.ideal.y, node.z - this.ideal.z)
  }

  isEnd (node) {
    const d = new Vec3(node.x - this.pos.x, node.y - this.pos.y, node.z - this.pos.z)
    if (d.x === 0 && d.z === 0 && d.y > -2 && d.y < this.height) return false // in the block's own space
    const eyes = d.offset(0.5, EYE_HEIGHT, 0.5) // from the cell's lowest corner
    if (eyes.distanceTo(new Vec3(0.5, 0.5, 0.5)) > STAND_REACH) return false
    if (this.face && eyes.minus(faceCentre(this.face)).dot(this.face) < FACE_MARGIN) return false
    if (!this.facing) return true
    const [fx, , fz] = rules.FACES[this.facing]
    const behind = -(d.x * fx + d.z * fz)
    const aside = Math.abs(d.x * fz) + Math.abs(d.z * fx)
    return behind >= 1 && aside + FACING_MARGIN < behind
  }
}

/** The centre of the face shared by the cell and its neighbour at -face, relative to the cell's lowest corner. */
function faceCentre (face) {
  return new Vec3(0.5, 0.5, 0.5).minus(face.scaled(0.5))
}

/**
 * Where the bot must stand to place `cell` ({x, y, z, block: spec}) in its state: a pathfinder
 * goal. Given the bot, the stand of the click it would make in its world (the face seen too);
 * without, the placer's facing the state asks for.
 */
function standFor (cell, bot = null) {
  const pos = new Vec3(cell.x, cell.y, cell.z)
  const wanted = parseSpec(cell.block)
  const height = rules.ruleOf(wanted.name) === 'door' ? 2 : 1
  const click = bot && clicksFor(bot, pos, wanted)[0]
  return new GoalPlaceAs(pos, click ? { ...click, height } : { facing: rules.facingNeeded(wanted), height })
}

/**
 * Places `cell` ({x, y, z, block: spec}) in the state its spec asks, walking first to where it
 * can, until `deadline` (ms since the epoch; a HelperError 'timeout' past it). Never raises for
 * a refusal: why is said.
 * @returns {{placed: boolean, now: string|null, why?: string}} `now`: the cell as the world reads it after
 */
async function placeAs (bot, cell, deadline) {
  const pos = new Vec3(cell.x, cell.y, cell.z)
  const wanted = parseSpec(cell.block)
  const why = await placeIn(bot, pos, wanted, deadline)
  const now = stateAt(bot, pos)
  const placed = sameBlock(now, wanted)
  const said = placed ? {} : { why: why ?? `the server set ${now ? specOf(now) : 'nothing'}` }
  return { placed, now: now && specOf(now), ...said }
}

/** Makes the cell `wanted`; returns why not, or null when nothing stood in the way. */
async function placeIn (bot, pos, wanted, deadline) {
  const now = stateAt(bot, pos)
  if (now === null) return `${fmt(pos)} is not loaded`
  if (sameBlock(now, wanted)) return null
  if (turns(now, wanted)) return turn(bot, pos, wanted.state.open === 'true', deadline)
  if (rules.ruleOf(wanted.name) === 'door' && wanted.state.half === 'upper') {
    return placeIn(bot, pos.offset(0, -1, 0), { name: wanted.name, state: { ...wanted.state, half: 'lower' } }, deadline)
  }
  const doubling = wanted.state.type === 'double'
  if (doubling && now.name !== wanted.name) {
    return await placeIn(bot, pos, { name: wanted.name, state: { type: 'bottom' } }, deadline) ?? placeIn(bot, pos, wanted, deadline)
  }
  const refused = refusal(bot, pos, wanted, now, doubling)
  if (refused) return refused
  const candidates = doubling ? slabClicks(bot, pos, now) : clicksFor(bot, pos, wanted)
  if (typeof candidates === 'string') return candidates
  let click = candidates.find((c) => clickable(bot, pos, c))
  if (!click) {
    const height = rules.ruleOf(wanted.name) === 'door' ? 2 : 1
    try {
      await walk(bot, new GoalPlaceAs(pos, { ...candidates[0], height }), deadline, `walking to place ${specOf(wanted)}`)
    } catch (err) {
      if (err.code === 'timeout') throw err
      return `no place to stand and place ${specOf(wanted)} from (${err.message})`
    }
    click = candidates.find((c) => clickable(bot, pos, c))
    if (!click) return `no click on ${fmt(pos)} gives ${specOf(wanted)} from where the walk ended`
  }
  await bot.equip(bot.inventory.items().find((i) => i.name === rules.itemOf(wanted.name)), 'hand')
  await bot._genericPlace(click.ref, click.face, { delta: click.cursor, forceLook: true, swingArm: 'right' })
  await waitFor(() => !sameBlock(stateAt(bot, pos), now), Math.min(ANSWER_MS, left(deadline)))
  return wanted.state.open === 'true' ? turn(bot, pos, true, deadline) : null
}

/**
 * Whether using the block `now` ({name, state}) makes it `wanted`: a door or trapdoor (a toggle
 * by a walk's scaffolding click) open where it must be closed, or closed where it must be open.
 */
function turns (now, wanted) {
  return now !== null && USED_WHEN_CLICKED.test(now.name) && now.state.open !== undefined &&
    sameBlock({ name: now.name, state: { ...now.state, open: wanted.state.open ?? 'false' } }, wanted)
}

/** Why nothing can be placed at `pos` now (the cell taken, no item), or null. */
function refusal (bot, pos, wanted, now, doubling) {
  if (!doubling && bot.blockAt(pos, false).boundingBox !== 'empty') return `${fmt(pos)} is taken by ${specOf(now)}`
  const above = bot.blockAt(pos.offset(0, 1, 0), false)
  if (rules.ruleOf(wanted.name) === 'door' && above && above.boundingBox !== 'empty') return `a door takes two cells; ${fmt(above.position)} is taken by ${above.name}`
  const item = rules.itemOf(wanted.name)
  if (!bot.registry.blocksByName[item]) return `${wanted.name} is not placed from an item of its own name`
  if (!bot.inventory.items().some((i) => i.name === item)) return `no ${item} in the inventory`
  return null
}

/**
 * The clicks that place the item for `wanted` at `pos` in the state asked (open aside: that
 * is used after), from anywhere: [{ref, face, cursor, facing}] (`facing` the placer's the click
 * needs, or null), those that need no turn first; or why there are none.
 */
function clicksFor (bot, pos, wanted) {
  const item = rules.itemOf(wanted.name)
  const props = Object.fromEntries((bot.registry.blocksByName[item]?.states ?? []).map((s) => [s.name, true]))
  const asked = { name: wanted.name, state: Object.fromEntries(Object.entries(wanted.state).filter(([k]) => k !== 'open')) }
  const door = rules.ruleOf(item) === 'door'
  const sides = Object.fromEntries(HORIZONTAL.map((f) => [f, door ? hingeSides(bot, pos, f, item) : null]))
  const clicks = []
  let refs = 0
  for (const [faceName, vector] of Object.entries(rules.FACES)) {
    const face = new Vec3(...vector)
    const ref = bot.blockAt(pos.minus(face), false)
    if (ref?.boundingBox !== 'block' || USED_WHEN_CLICKED.test(ref.name)) continue
    refs++
    for (const cursor of pointsOn(face)) {
      const gives = (facing) => sameBlock(rules.placedState(item, props, { face: faceName, at: cursor.minus(face), facing }, sides[facing]), asked)
      const facings = HORIZONTAL.filter(gives)
      if (facings.length === HORIZONTAL.length) clicks.push({ ref, face, cursor, facing: null })
      else for (const facing of facings) clicks.push({ ref, face, cursor, facing })
    }
  }
  if (clicks.length > 0) return clicks.sort((a, b) => (a.facing !== null) - (b.facing !== null))
  if (refs === 0) return `no block beside ${fmt(pos)} to click for ${specOf(wanted)}`
  return `no click on the ${refs} block${refs > 1 ? 's' : ''} beside ${fmt(pos)} gives ${specOf(wanted)} (the game sets the rest from the neighbours)`
}

/**
 * Whether the bot can place `cell` ({x, y, z, block: spec}) in its state from where it stands,
 * with no walk: a click it can make, and its body out of the cell.
 */
function placeableHere (bot, cell) {
  const pos = new Vec3(cell.x, cell.y, cell.z)
  const wanted = parseSpec(cell.block)
  if (inBody(bot.entity.position, pos, rules.ruleOf(wanted.name) === 'door' ? 2 : 1)) return false
  const clicks = clicksFor(bot, pos, wanted)
  return typeof clicks !== 'string' && clicks.some((c) => clickable(bot, pos, c))
}

/** Whether the body of a player with its feet at `feet` takes part of the `height` cells up from `pos`. */
function inBody (feet, pos, height) {
  const apart = (lo, hi, cell, size) => hi <= cell || lo >= cell + size
  return !(apart(feet.x - BODY_HALF, feet.x + BODY_HALF, pos.x, 1) || apart(feet.z - BODY_HALF, feet.z + BODY_HALF, pos.z, 1) ||
    apart(feet.y, feet.y + BODY_HEIGHT, pos.y, height))
}

/** Whether the bot can make `click` from where it stands: facing as it needs, the face seen and within reach. */
function clickable (bot, pos, click) {
  if (click.facing && rules.placerFacing(bot.entity.position, pos) !== click.facing) return false
  const eyes = bot.entity.position.offset(0, EYE_HEIGHT, 0)
  const point = click.ref.position.plus(click.cursor)
  return eyes.minus(point).dot(click.face) > 0 && eyes.distanceTo(point) <= REACH
}

/** The click on the slab at `pos` ({name, state} `now`) that makes it double, or why there is none. */
function slabClicks (bot, pos, now) {
  const face = { bottom: new Vec3(0, 1, 0), top: new Vec3(0, -1, 0) }[now.state.type]
  if (!face) return `${fmt(pos)} holds ${specOf(now)}, no slab to double`
  return [{ ref: bot.blockAt(pos, false), face, cursor: new Vec3(0.5, now.state.type === 'bottom' ? 0.5 : 0, 0.5), facing: null }]
}

/** The points of the face of a block pointing `face`, relative to the block. */
function pointsOn (face) {
  const points = []
  for (const a of ON_FACE) {
    for (const b of ON_FACE) {
      const p = face.x ? [0.5 + face.x / 2, a, b] : face.y ? [a, 0.5 + face.y / 2, b] : [a, b, 0.5 + face.z / 2]
      points.push(new Vec3(...p))
    }
  }
  return points
}

/** The full blocks and lower door halves beside a door placed at `pos` by a placer facing `facing`. */
function hingeSides (bot, pos, facing, name) {
  const { left: l, right: r } = rules.hingeNeighbours(facing)
  const read = (offsets) => offsets.map(([dx, dy, dz]) => bot.blockAt(pos.offset(dx, dy, dz), false))
  const lowerDoor = (b) => b?.name === name && b.getProperties().half === 'lower'
  const [lb, rb] = [read(l), read(r)]
  return { left: lb.filter(rules.fullCube).length, right: rb.filter(rules.fullCube).length, leftDoor: lowerDoor(lb[0]), rightDoor: lowerDoor(rb[0]) }
}

/** Opens (`open`) or closes the door or trapdoor at `pos` by using it; returns why not, or null. */
async function turn (bot, pos, open, deadline) {
  const block = bot.blockAt(pos, false)
  if (block.getProperties().open === open) return null
  if (block.name.startsWith('iron_')) return `${block.name} opens and closes by redstone, not by hand`
  await bot.activateBlock(block)
  await waitFor(() => bot.blockAt(pos, false)?.getProperties().open === open, Math.min(ANSWER_MS, left(deadline)))
  return null
}

/** Whether the cell's block, at `cell` ({x, y, z, block: spec}), is put right by using it (turns says when). */
function turnsRight (bot, cell) {
  return turns(stateAt(bot, new Vec3(cell.x, cell.y, cell.z)), parseSpec(cell.block))
}

/** The bridge action: one cell, {x, y, z, block, timeout_s}. */
async function placeCell (bot, args) {
  const { x, y, z, block, timeout_s: timeoutS } = required(args, 'x', 'y', 'z', 'block', 'timeout_s')
  if (!bot.registry.blocksByName[parseSpec(block).name]) throw new HelperError('bad_args', `unknown block '${block}'`)
  return placeAs(bot, { x, y, z, block }, Date.now() + timeoutS * 1000)
}

module.exports = { placeAs, standFor, placeableHere, turnsRight, placeCell }
