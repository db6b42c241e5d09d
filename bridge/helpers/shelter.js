'use strict'
// The `shelter` predicate (agent/checks/model.py): whether the air around a cell is a shelter.
// From the start cell (the feet block, or the cell asked) a flood fill goes six ways through
// the cells a body passes; a door only when open, so a closed door closes the space. The space
// is a shelter when the fill stays within REACH and MAX_CELLS, no cell of it sees the sky, one
// cell has a solid floor and room for the head, and a closed door stands in its wall. The
// floor needs no check of its own: a gap under the space is part of it, and leads out or not.
// World blocks: x east, y up, z south.
const { stateAt } = require('./blockstate')

// How far the space may reach from its start (blocks, each way) and how many cells it may
// hold: a house or a hut, not a cave system or the open world.
const REACH = 12
const MAX_CELLS = 400
const UP = [0, 1, 0]
const SIDES = [UP, [0, -1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]]

const finding = (holds, says) => ({ holds, says })
const said = (p) => `(${p.x}, ${p.y}, ${p.z})`
const keyOf = (p) => `${p.x},${p.y},${p.z}`
const isDoor = (name) => typeof name === 'string' && name.endsWith('_door')

/**
 * @param bot the bot, whose world is read
 * @param at reader(bot): Vec3 -> {name, passable} (blocks.js)
 * @param start Vec3 cell the space is judged from
 * @returns {{holds: boolean, says: string}}
 */
function shelterAround (bot, at, start) {
  const top = bot.game.minY + bot.game.height
  const door = (p) => isDoor(at(p).name) ? stateAt(bot, p).state : null
  // A body passes here: air, a plant, a door standing open.
  const open = (p) => door(p) ? door(p).open === 'true' : at(p).passable
  const skyOver = (p) => {
    for (const q = p.offset(0, 1, 0); q.y < top; q.y++) if (!open(q)) return false
    return true
  }
  if (at(start).name === null) return finding(false, `${said(start)} is not loaded`)
  if (!open(start)) return finding(false, `${said(start)} is not open: ${at(start).name} there`)
  const cameBy = new Map([[keyOf(start), null]]) // cell -> [the cell it was reached from, the move]
  const space = [start]
  const doors = new Map()
  for (let i = 0; i < space.length; i++) {
    const cell = space[i]
    if (skyOver(cell)) {
      const [, move] = cameBy.get(keyOf(cell)) ?? [null, UP]
      if (move === UP) return finding(false, `open to the sky at ${said(cell)}`)
      return finding(false, `escapes to ${said(cell)}, under the open sky${through(cell)}`)
    }
    for (const move of SIDES) {
      const next = cell.offset(...move)
      if (cameBy.has(keyOf(next))) continue
      const state = door(next)
      if (state && state.open !== 'true') {
        const lower = state.half === 'upper' ? next.offset(0, -1, 0) : next
        doors.set(keyOf(lower), lower)
        continue
      }
      if (!open(next)) continue
      cameBy.set(keyOf(next), [cell, move])
      if (['x', 'y', 'z'].some((axis) => Math.abs(next[axis] - start[axis]) > REACH)) {
        return finding(false, `escapes to ${said(next)}, more than ${REACH} blocks from ${said(start)}${through(next)}`)
      }
      if (space.length === MAX_CELLS) return finding(false, `escapes: more than ${MAX_CELLS} open cells from ${said(start)}`)
      space.push(next)
    }
  }
  const inSpace = (p) => cameBy.has(keyOf(p))
  const standing = space.some((c) => inSpace(c.offset(0, 1, 0)) && !open(c.offset(0, -1, 0)) && at(c.offset(0, -1, 0)).name !== null)
  if (!standing) return finding(false, `no room to stand in the ${space.length} open cells (a solid floor, 2 blocks high)`)
  if (doors.size === 0) return finding(false, `closed in and roofed (${space.length} open cells), but no door`)
  const first = [...doors.values()][0]
  const more = doors.size > 1 ? ` and ${doors.size - 1} more` : ''
  return finding(true, `closed in and roofed (${space.length} open cells), a door at ${said(first)}${more}`)

  /** ', through the open door at (x, y, z)' when the way the fill took to `cell` passed one. */
  function through (cell) {
    for (let p = cell; p !== null; p = cameBy.get(keyOf(p))?.[0] ?? null) {
      if (door(p)) return `, through the open door at ${said(p)}`
    }
    return ''
  }
}

module.exports = { shelterAround }
