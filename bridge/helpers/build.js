'use strict'
// mc-build: a blueprint built from the inventory, in survival. Every step reads the world first
// (build-order.js): cells holding another block are dug, then cells are placed in an order that
// can be placed, each in the state asked (place-as.js), from where the bot stands or after a
// walk to where it can be placed from (stand by stand, not cell by cell), towering on
// scaffolding where the ground does not reach and keeping it while it serves (build-scaffold.js), and never
// closing the bot in (build-exit.js). The full blocks and what hangs on them come first, their
// scaffolding is taken down, then the doors. Nothing is kept between calls: a second call goes
// on from what the world holds. Positions are world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { required } = require('./errors')
const { left } = require('./approach')
const { haltWatch, Stop } = require('./stepwise')
const { clear } = require('./digging')
const { frameOf } = require('./frame')
const { withTimeout } = require('./waiting')
const { counts } = require('./inventory')
const { placeAs, standFor, placeableHere, turnsRight } = require('./place-as')
const { planOf, statusOf, placingOrder, exitOf, nextStep, whyNot, comesWithAnother, DOOR } = require('./build-order')
const { Scaffold, Where, near, scaffoldItems } = require('./build-scaffold')
const { regionOf, wayOut } = require('./build-exit')

// The cells listed in a report's missing and wrong (the counts are whole).
const LISTED = 32
// A cell that failed this often is not tried again in the call.
const TRIES = 3
// Why a cell was not reached (placeOne's words): a stand no walk got to, or none with a click.
const UNREACHED = /^no place to stand|from where the walk ended/
// What is asked for scaffolding when there is none spare: a collecting's most, of what digging
// the ground gives.
const SCAFFOLD_ITEM = 'dirt'
const SCAFFOLD_ASK = 16
// Farther than this (blocks, across) from the build's centre, a call first walks back to it.
const BACK_WITHIN = 16
// A plant dug by hand goes at once; the server confirms within a tick or two.
const PLANT_MS = 2000

/** @param {{cells: {x: number, y: number, z: number, block: string}[], timeout_s: number}} args */
async function build (bot, args) {
  const { cells, timeout_s: timeoutS } = required(args, 'cells', 'timeout_s')
  const deadline = Date.now() + timeoutS * 1000
  const plan = planOf(bot, cells)
  const work = new Building(bot, plan, deadline)
  let stop = 'completed'
  let detail = null
  try {
    await work.comeBack()
    const order = placingOrder(plan, exitOf(plan, bot.entity.position.floored()))
    // The doors last, once the scaffolding is down: inside a closed room it could not be reached.
    for (const phase of [order.filter((c) => c.group !== DOOR), order]) {
      await work.run(phase)
      detail = await work.scaffold.takeDown(deadline, work.need()) // the last word: a second pass takes down what the first left
    }
  } catch (err) {
    if (err instanceof Stop && err.reason === 'stopped') stop = 'stopped'
    else if (err.code === 'timeout') stop = 'timeout'
    else throw err
  }
  return report(bot, plan, work, stop, detail)
}

/** One call's building: what it did (`placed`, `cleared`, `scaffold`) and why cells failed (`failed`). */
class Building {
  constructor (bot, plan, deadline) {
    this.bot = bot
    this.plan = plan
    this.deadline = deadline
    this.halted = haltWatch(bot)
    this.region = regionOf(plan)
    this.scaffold = new Scaffold(bot, new Set(plan.map((c) => c.key)))
    this.failed = new Map() // cell key -> why, for cells that failed in this pass
    this.tries = new Map() // cell key -> how often it failed in this call
    this.placed = 0
    this.cleared = 0
  }

  /**
   * Passes over `order`'s cells (and any to clear), each cell tried once a pass, while a pass
   * changes the world: what failed may go after a change (a support placed, a way built), but
   * a cell that failed TRIES times (one placed wrong again and again) is not tried again.
   */
  async run (order) {
    for (let done = -1; done !== this.placed + this.cleared;) {
      done = this.placed + this.cleared
      for (const key of this.failed.keys()) if ((this.tries.get(key) ?? 0) < TRIES) this.failed.delete(key)
      const here = (cell) => this.placeableHere(cell)
      for (let step = nextStep(this.bot, this.plan, order, this.failed, here); step !== null; step = nextStep(this.bot, this.plan, order, this.failed, here)) {
        this.halted()
        left(this.deadline)
        const cell = step.clear ?? step.place
        const why = step.clear ? await this.clearOne(cell) : await this.placeOne(cell, step.here === true)
        if (why !== null) {
          this.failed.set(cell.key, why)
          this.tries.set(cell.key, (this.tries.get(cell.key) ?? 0) + 1)
        }
      }
    }
  }

  /**
   * Walks back to the build when the bot is far from it (a need fetched elsewhere: logs, dirt),
   * so that its cells are loaded and read, and placing starts from near.
   */
  async comeBack () {
    const { lo, hi } = this.region.box
    const centre = { x: Math.floor((lo.x + hi.x) / 2), y: lo.y, z: Math.floor((lo.z + hi.z) / 2) }
    const feet = this.bot.entity.position
    if (Math.hypot(feet.x - centre.x, feet.z - centre.z) <= BACK_WITHIN) return
    await this.scaffold.walkTo(new goals.GoalNear(centre.x, centre.y, centre.z, BACK_WITHIN), null, this.deadline,
      'walking back to the build').catch((err) => { if (err.code === 'timeout') throw err }) // no way back: build what is in reach
  }

  /**
   * Digs what holds `cell` (a plant, terrain, a wrong block), or uses a door or trapdoor open or
   * closed the wrong way (a walk's click may have turned it): dug, its drop may be left lying.
   * @returns why not, or null.
   */
  async clearOne (cell) {
    const bot = this.bot
    try {
      await this.scaffold.walkTo(near(cell.pos), this.need(), this.deadline, 'walking to clear a cell')
      if (turnsRight(bot, targetOf(cell))) return (await placeAs(bot, targetOf(cell), this.deadline)).why ?? null
      const block = bot.blockAt(cell.pos, false)
      if (block.boundingBox === 'empty') await withTimeout(bot.dig(block, true), PLANT_MS, `digging the ${block.name}`).catch(() => {})
      else await clear(bot, frameOf(bot), cell.pos)
    } catch (err) {
      if (err.code === 'timeout') throw err
      return `could not clear the ${bot.blockAt(cell.pos, false)?.name}: ${err.message}`
    }
    if (statusOf(bot, cell) === 'taken') return `the ${bot.blockAt(cell.pos, false).name} is still there after digging`
    this.cleared++
    return null
  }

  /** Whether `cell` can be placed from where the bot stands, keeping a way out (build-exit.js). */
  placeableHere (cell) {
    return placeableHere(this.bot, targetOf(cell)) &&
      wayOut(this.bot, this.region, cell, this.scaffold.keys())(this.bot.entity.position.floored())
  }

  /**
   * Walks to where `cell` can be placed from, keeping a way out (build-exit.js): the stand of
   * the click place-as would make from here, else any stand for the state asked (a door's other
   * side may face the way asked too); then places it; with no walk when `here` says the bot
   * stands where it can. @returns why not, or null.
   */
  async placeOne (cell, here) {
    const target = targetOf(cell)
    const keepsOut = here ? null : wayOut(this.bot, this.region, cell, this.scaffold.keys())
    let why = null
    for (const stand of here ? [] : [standFor(target, this.bot), standFor(target)]) {
      why = await this.scaffold.walkTo(new Where(stand, keepsOut), this.need(), this.deadline, `walking to place ${cell.spec}`)
        .then(() => null, (err) => { if (err.code === 'timeout') throw err; return err.message })
      if (why === null) break
    }
    if (why !== null) return `no place to stand and place it from that keeps a way out (${why})`
    const done = await placeAs(this.bot, target, this.deadline)
    if (!done.placed || statusOf(this.bot, cell) !== 'right') return done.why ?? `placed, but ${done.now} is there`
    this.placed++
    return null
  }

  /** {item: count} the cells not yet right still need. */
  need () {
    const need = {}
    for (const c of this.plan) {
      if (!c.air && !comesWithAnother(c) && statusOf(this.bot, c) !== 'right') need[c.item] = (need[c.item] ?? 0) + 1
    }
    return need
  }
}

/** A plan's cell as place-as.js takes it. */
function targetOf (cell) {
  return { x: cell.pos.x, y: cell.pos.y, z: cell.pos.z, block: cell.spec }
}

/** The blueprint as the world reads it now, with what this call did. */
function report (bot, plan, work, stop, detail) {
  const missing = []
  const wrong = []
  for (const cell of plan) {
    const status = statusOf(bot, cell)
    if (status === 'right') continue
    const now = bot.blockAt(cell.pos, false)?.name ?? null
    const why = work.failed.get(cell.key) ?? (status === 'empty' ? whyNot(bot, cell) : null) ?? 'not tried'
    const entry = { x: cell.pos.x, y: cell.pos.y, z: cell.pos.z, block: cell.spec, now, reason: why }
    if (status === 'taken') wrong.push(entry)
    else missing.push(entry)
  }
  const right = plan.length - missing.length - wrong.length
  const carried = counts(bot)
  const need = work.need() // one read of every cell, for what is short and what is spare
  const short = Object.fromEntries(Object.entries(need).map(([item, n]) => [item, n - (carried[item] ?? 0)]).filter(([, n]) => n > 0))
  // Cells no walk reached and nothing spare to tower on: blocks to scaffold with are short too,
  // what a player fetches first (the planner makes it a sub-goal, as for any item short).
  if (missing.some((m) => UNREACHED.test(m.reason)) && scaffoldItems(bot, need).length === 0) {
    short[SCAFFOLD_ITEM] = (short[SCAFFOLD_ITEM] ?? 0) + SCAFFOLD_ASK
  }
  return {
    cells: plan.length,
    right,
    share: Math.round(1000 * right / plan.length) / 1000,
    placed: work.placed,
    cleared: work.cleared,
    scaffold: { placed: work.scaffold.placed, removed: work.scaffold.removed, left: work.scaffold.standing().length },
    missing: missing.slice(0, LISTED),
    wrong: wrong.slice(0, LISTED),
    short,
    // what it carries of the items short: with `short`, the totals a planner's sub-goal asks for
    inventory: Object.keys(short).filter((name) => carried[name]).map((name) => ({ name, count: carried[name] })),
    stop_reason: stop,
    detail: detail ?? `${right} of ${plan.length} cells right`
  }
}

module.exports = { build }
