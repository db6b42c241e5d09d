'use strict'
// A block with its state, as the game writes it (`oak_stairs[facing=east,half=bottom]`), read
// and compared as agent/mc/blockstate.py does: only the properties a placer chooses
// (chosen-properties.json, the one list both sides read) are asked and compared; the game
// derives the rest from the neighbours (a pane's connections, a stair's shape).
const CHOSEN = new Set(require('./chosen-properties.json'))

/** 'name[k=v,...]' -> {name, state: {k: v}} with only the chosen properties kept. */
function parseSpec (spec) {
  const m = /^(?:minecraft:)?([a-z0-9_]+)(?:\[(.*)\])?$/.exec(spec)
  if (!m) return { name: spec, state: {} }
  const pairs = m[2] ? m[2].split(',').map((p) => p.split('=')) : []
  return { name: m[1], state: Object.fromEntries(pairs.filter(([k]) => CHOSEN.has(k))) }
}

/** The block at `pos` as {name, state} (chosen properties, as strings), or null when not loaded. */
function stateAt (bot, pos) {
  const block = bot.blockAt(pos, false)
  if (!block) return null
  const props = block.getProperties()
  const state = Object.fromEntries(Object.entries(props).filter(([k]) => CHOSEN.has(k)).map(([k, v]) => [k, String(v)]))
  return { name: block.name, state }
}

/** Whether `actual` ({name, state}) is the wanted block, each property it asks for as asked. */
function sameBlock (actual, wanted) {
  return actual !== null && actual.name === wanted.name &&
    Object.entries(wanted.state).every(([k, v]) => actual.state[k] === String(v))
}

/** The game's notation of {name, state}. */
function specOf ({ name, state }) {
  const props = Object.entries(state).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`)
  return props.length ? `${name}[${props.join(',')}]` : name
}

/** The state id of a spec in `registry`: the block's default state with the properties asked
 * (a door's `half=upper`); unknown names throw. */
function stateIdOf (registry, spec) {
  const { name, state } = parseSpec(spec)
  const block = registry.blocksByName[name]
  if (!block) throw new Error(`unknown block '${name}'`)
  const base = block.defaultState ?? block.minStateId
  if (Object.keys(state).length === 0) return base
  const Block = require('prismarine-block')(registry)
  return Block.fromProperties(name, { ...Block.fromStateId(base, 0).getProperties(), ...state }, 0).stateId
}

module.exports = { parseSpec, stateAt, sameBlock, specOf, stateIdOf }
