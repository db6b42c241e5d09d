'use strict'
// What the bot's body has been in since its run began: the name of every block whose cell its
// bounding box overlapped on some physics tick (20 a second: a walk moves under a third of a
// block per tick, so it cannot step over a cell unseen). A goal check's `avoided` reads it
// (goal.js): walking out of the lava does not undo having walked into it.
// Kept by username for the whole bridge process, so a bot that joins again (a rejoin makes a
// new bot) keeps what it touched; Python forgets it when a run starts (forgetContacts).
// World blocks: x east, y up, z south; the position is the feet, at the box's bottom centre.
const { Vec3 } = require('vec3')
const { reader } = require('./blocks')

const HALF_WIDTH = 0.3 // the player's box: 0.6 x 1.8 x 0.6 blocks
const HEIGHT = 1.8
// The box is shrunk by this much on every side, so a wall or floor the bot only stands against
// is not a cell it is in (as vanilla shrinks the box it tests fluids with).
const INSET = 0.001

const touched = new Map() // username -> Map(block name -> the first cell it was met in, {x, y, z})

function cellsInBox ({ x, y, z }) {
  const cells = []
  for (let cx = Math.floor(x - HALF_WIDTH + INSET); cx <= Math.floor(x + HALF_WIDTH - INSET); cx++) {
    for (let cy = Math.floor(y + INSET); cy <= Math.floor(y + HEIGHT - INSET); cy++) {
      for (let cz = Math.floor(z - HALF_WIDTH + INSET); cz <= Math.floor(z + HALF_WIDTH - INSET); cz++) {
        cells.push({ x: cx, y: cy, z: cz })
      }
    }
  }
  return cells
}

function record (bot) {
  if (!bot.entity || bot.isAlive === false) return
  const met = touched.get(bot.username) ?? new Map()
  touched.set(bot.username, met)
  const at = reader(bot) // by state id: no Block object per cell, 12 cells 20 times a second
  for (const cell of cellsInBox(bot.entity.position)) {
    const { name } = at(new Vec3(cell.x, cell.y, cell.z))
    if (name !== null && !met.has(name)) met.set(name, cell)
  }
}

/** Starts recording what the bot's body is in, tick by tick (connection.js, on every join). */
function watchContacts (bot) {
  bot.on('physicsTick', () => record(bot))
}

/** The first cell of each of `names` the bot has been in since its run began, by name. */
function contactsWith (bot, names) {
  const met = touched.get(bot.username) ?? new Map()
  return names.filter((name) => met.has(name)).map((name) => ({ name, ...met.get(name) }))
}

/** The start of a run: what the bot was in before does not count against it. */
function forgetContacts (bot) {
  touched.delete(bot.username)
  record(bot)
  return { forgotten: true }
}

module.exports = { watchContacts, contactsWith, forgetContacts }
