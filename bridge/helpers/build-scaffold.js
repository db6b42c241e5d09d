'use strict'
// Scaffolding for a build: to reach a cell too high to place from the ground, the walk may
// tower and bridge (pathfinder's own moves) with blocks the build does not need, never into
// the blueprint's cells; each block the walk sets down is remembered and dug away when the
// building is done. A walk may dig the scaffolding (and nothing else): the bot on a pillar
// higher than a safe drop gets down by digging it under its feet, and a pillar left against a
// wall is no cage; a door or trapdoor standing open is walked through, and none is stood on. Positions are world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { movementsFor } = require('./goto')
const { SAFE_DROP } = require('./blocks')
const { withTimeout, waitFor } = require('./waiting')
const { HelperError } = require('./errors')
const { left } = require('./approach')
const { takeDown } = require('./stand-under')
const { fullCube } = require('./pillar-up')
const { keyOf } = require('./build-order')
const { standsOpen, TURNED } = require('./build-exit')
const { pickUpLying, nearestDrop } = require('./pickup')
const { carried, counts } = require('./inventory')

// Filler blocks towered with first; any other full block carried beyond the build's need after.
const CHEAP = ['dirt', 'cobblestone', 'cobbled_deepslate', 'netherrack']
// Placements whose inventory update may still be on its way (see scaffoldItems).
const IN_FLIGHT = 1
// The pathfinder's cost for a step through a blueprint's cell: never placed into; for digging
// a block that is not scaffolding: never dug (pathfinder refuses a dig costing 100 or more).
const NEVER = 1000
// One walk's bound: a walk among a build's cells takes seconds (towering 10 high, some 15 s); a
// search that never ends (pathfinder replanning round a closed room, a stand it cannot reach)
// once held a call 12 minutes.
const WALK_MS = 40000
// A drop past the safe one, taken only where no walk keeps to it: 6 blocks cost 3 of 20 health.
const JUMP_DROP = 6
const JUMP_HEALTH = 14
// Digging a block: the feet within this of it (the eyes are then within reach).
const DIG_REACH = 3
// A dug block's drop appears and lands within a second; the server hands it over half a second
// after, to a player within 1.75 blocks.
const DROP_LANDS_MS = 1000

/** A walk's goal `base`, met only where `allowed(node)` also holds. */
class Where extends goals.Goal {
  constructor (base, allowed) {
    super()
    this.base = base
    this.allowed = allowed
  }

  heuristic (node) { return this.base.heuristic(node) }
  isEnd (node) { return this.base.isEnd(node) && this.allowed(node) }
}

/**
 * Items to scaffold with: full blocks carried beyond what `need` ({item: count}) still asks, fillers
 * first. An item the build needs is spare only past IN_FLIGHT more: a block just placed is read in
 * its cell before the server's inventory update takes it off (a loaded run's hut was built one
 * cobblestone short, towered with as if spare).
 */
function scaffoldItems (bot, need) {
  const have = counts(bot)
  const spare = Object.keys(have).filter((n) => fullCube(bot, n) && have[n] > (need[n] ? need[n] + IN_FLIGHT : 0))
  return spare.sort((a, b) => rank(a) - rank(b)).map((n) => bot.registry.itemsByName[n].id)
}

const rank = (name) => CHEAP.includes(name) ? CHEAP.indexOf(name) : CHEAP.length

/**
 * Scaffolding for one build: `walkTo` walks to a goal, towering with spare blocks where the
 * ground does not reach and never setting one into `planKeys`; `takeDown` digs every block it
 * set down, pillar by pillar. `placed` counts them, `removed` those no longer standing (dug
 * by a walk too).
 */
class Scaffold {
  constructor (bot, planKeys) {
    this.bot = bot
    this.planKeys = planKeys
    this.cells = new Map() // key -> Vec3 of a block set down and not yet dug
    this.placed = 0
  }

  /**
   * Walks to `goal` until `deadline`, scaffolding with what `need` leaves spare (null: none).
   */
  async walkTo (goal, need, deadline, what) {
    const bot = this.bot
    const ms = left(deadline) // before the walk starts: a walk no one waits for would run on
    const onUpdate = (old, now) => {
      const key = keyOf(now.position)
      if (old?.boundingBox === 'empty' && now.boundingBox === 'block' && !this.planKeys.has(key) && !this.cells.has(key)) {
        this.cells.set(key, now.position.clone())
        this.placed++
      }
    }
    bot.on('blockUpdate', onUpdate)
    try {
      // A bot left on a ledge higher than a safe drop (the way out it kept was dug, or read
      // wrong) jumps off, as a player would, while its health takes the fall.
      const drops = bot.health >= JUMP_HEALTH ? [SAFE_DROP, JUMP_DROP] : [SAFE_DROP]
      for (const [i, drop] of drops.entries()) {
        bot.pathfinder.setMovements(this.movements(need, drop))
        try {
          return await withTimeout(bot.pathfinder.goto(goal), Math.min(ms, WALK_MS), what, () => bot.pathfinder.stop())
        } catch (err) {
          if (err.name === 'NoPath' && i < drops.length - 1) continue
          // A walk past its own bound failed; past the call's, the call ends.
          throw err.code === 'timeout' && Date.now() < deadline ? new HelperError('no_path', err.message) : err
        }
      }
    } finally {
      bot.removeListener('blockUpdate', onUpdate)
    }
  }

  /** A walk's moves: towering with what `need` leaves spare (null: none), never into the plan's cells, digging only scaffolding, dropping up to `drop`. */
  movements (need, drop) {
    const movements = movementsFor(this.bot, { allow_build: need !== null, allow_dig: true, max_drop: drop })
    if (need !== null) movements.scafoldingBlocks = scaffoldItems(this.bot, need)
    movements.exclusionAreasPlace = [(block) => this.planKeys.has(keyOf(block.position)) ? NEVER : 0]
    movements.exclusionAreasBreak = [(block) => this.cells.has(keyOf(block.position)) ? 0 : NEVER]
    const blockOf = movements.getBlock.bind(movements)
    movements.getBlock = (pos, dx, dy, dz) => {
      const block = blockOf(pos, dx, dy, dz)
      // a trapdoor stood on was turned by a scaffolding click, then dug and its drop lost
      if (standsOpen(block)) Object.assign(block, { safe: true, physical: false })
      else if (TURNED.test(block.name)) Object.assign(block, { safe: false, physical: false })
      return block
    }
    return movements
  }

  /**
   * Digs the scaffolding down, each pillar (a column's unbroken run) from its top, the nearest
   * first: from where a walk gets without building (a bridge 2 up is dug from the ground under
   * it, a pillar stood on down under the feet, as stand-under.js takes its pillar down), else
   * standing on its top, towering beside it with what `need` leaves spare (that tower is
   * scaffolding too, taken down later). Rounds go on while one leaves fewer blocks standing.
   * @returns why a block stays, or null.
   */
  async takeDown (deadline, need) {
    let why = null
    for (let before = Infinity; this.standing().length > 0 && this.standing().length < before;) {
      before = this.standing().length
      why = null
      const tried = new Set()
      for (let run = this.nearest(tried); run !== null; run = this.nearest(tried)) {
        tried.add(keyOf(run.stand))
        const top = run.stand.offset(0, run.height - 1, 0)
        try {
          await this.walkTo(near(top), null, deadline, 'walking to the scaffolding')
            .catch((err) => err.code === 'timeout' ? Promise.reject(err) : this.walkTo(new goals.GoalBlock(top.x, top.y + 1, top.z), need, deadline, 'walking onto the scaffolding'))
          const had = carried(this.bot)
          await takeDown(this.bot, run)
          await this.gather(run, had, deadline)
        } catch (err) {
          if (err.code === 'timeout') throw err
          why = why ?? `the scaffolding at (${top.x}, ${top.y}, ${top.z}) stays: ${err.message}`
        } finally {
          this.forget(run)
        }
      }
    }
    return why
  }

  /**
   * Walks onto the drops of a pillar taken down, one by one (pickup.js), until the inventory holds
   * the `had` before it and one block for each of its cells: a block dug from beside drops where
   * the bot does not stand, and left there the blocks towered with were lost (a build short of
   * the dirt it towered with, or of a block its cells need). A pillar dug from under the feet is
   * picked up as it falls: no walk, and no wait for drops to land.
   */
  async gather (run, had, deadline) {
    const top = run.stand.offset(0, run.height - 1, 0)
    const done = () => carried(this.bot) >= had + run.height
    if (await waitFor(done, Math.min(DROP_LANDS_MS, left(deadline)))) return
    await pickUpLying(this.bot, {
      find: () => nearestDrop(this.bot, top),
      done,
      walkTo: (goal) => this.walkTo(goal, null, deadline, 'walking onto a dropped scaffold block'),
      tries: run.height,
      deadline
    })
  }

  /** The standing pillar whose top is nearest the bot, of those whose lowest cell's key is not in `tried`; or null. */
  nearest (tried) {
    const feet = this.bot.entity.position
    const away = (run) => run.stand.offset(0.5, run.height - 0.5, 0.5).distanceTo(feet)
    const left = this.pillars().filter((run) => !tried.has(keyOf(run.stand)))
    return left.length ? left.reduce((best, run) => away(run) < away(best) ? run : best) : null
  }

  /** The scaffolding's standing pillars {stand: lowest cell, height}. */
  pillars () {
    const standing = this.standing()
    const has = new Set(standing.map(keyOf))
    return standing.filter((p) => !has.has(keyOf(p.offset(0, -1, 0)))).map((stand) => {
      let height = 1
      while (has.has(keyOf(stand.offset(0, height, 0)))) height++
      return { stand, height }
    })
  }

  /** The keys of the scaffold blocks still in the world: a walk digs through them. */
  keys () {
    return new Set(this.standing().map(keyOf))
  }

  /** The scaffold blocks still in the world. */
  standing () {
    return [...this.cells.values()].filter((p) => this.bot.blockAt(p, false)?.boundingBox === 'block')
  }

  get removed () {
    return this.placed - this.standing().length
  }

  /** Drops `run`'s cells no longer standing from those remembered. */
  forget (run) {
    for (let up = 0; up < run.height; up++) {
      const pos = run.stand.offset(0, up, 0)
      if (this.bot.blockAt(pos, false)?.boundingBox !== 'block') this.cells.delete(keyOf(pos))
    }
  }
}

/** A goal: the feet within DIG_REACH of the block at `pos`, to dig it from. */
function near (pos) {
  return new goals.GoalNear(pos.x, pos.y, pos.z, DIG_REACH)
}

module.exports = { Scaffold, Where, near, scaffoldItems }
