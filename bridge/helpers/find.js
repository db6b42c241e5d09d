'use strict'
// Finding things near the bot: blocks of given kinds, dropped items, other players. Each is
// given with its world position, its egocentric offset (frame.js) and its distance, nearest
// first; the nearest few also with whether pathfinder finds a walk to beside it.
// World blocks: x east, y up, z south. Distances are blocks from the feet position, to a
// block's centre or to an entity's position.
const { goals } = require('mineflayer-pathfinder')
const { frameOf } = require('./frame')
const { tidy } = require('./numbers')
const { kindOf, walkable, SEARCH_MARGIN } = require('./approach')
const { movementsFor } = require('./goto')
const { required } = require('./errors')

// A walk is searched for to the nearest this many only (approach.js's bounded search): a find
// is a look, not a walk.
const PATHS_SEARCHED = 3

/**
 * @param {{blocks: string[], items: boolean, players: boolean, radius: number, count: number}} args
 *   block names to find; whether dropped items and other players count; blocks from the feet; how many.
 */
function find (bot, args) {
  const { blocks, items, players, radius, count } = required(args, 'blocks', 'items', 'players', 'radius', 'count')
  const feet = bot.entity.position
  const nearBlocks = blocks.flatMap((name) => blocksOf(bot, name, radius, count))
  const entities = Object.values(bot.entities).filter((e) => e !== bot.entity && feet.distanceTo(e.position) <= radius)
  const found = [
    ...nearBlocks,
    ...(items === true ? entities.filter((e) => e.name === 'item').map(droppedItem) : []),
    ...(players === true ? entities.filter(isPlayer).map((e) => sighting('player', playerName(bot, e), e.position, e.position)) : [])
  ].map((f) => ({ ...f, distance: feet.distanceTo(f.centre) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, count)
  const frame = frameOf(bot)
  const movements = movementsFor(bot, {})
  return {
    radius,
    feet: { x: frame.feet.x, y: frame.feet.y, z: frame.feet.z },
    found: found.map((f, i) => view(f, frame, i < PATHS_SEARCHED ? reachable(bot, f, radius + SEARCH_MARGIN, movements) : null)),
    missing: blocks.filter((name) => !nearBlocks.some((b) => b.name === name))
  }
}

function blocksOf (bot, name, radius, count) {
  const kind = kindOf(bot, name)
  return bot.findBlocks({ matching: kind.id, maxDistance: radius, count })
    .map((cell) => sighting('block', name, cell, cell.offset(0.5, 0.5, 0.5)))
}

/** A dropped stack, named `unknown` while the server has not said what it is: its metadata comes
 * a tick after it appears, and the embedded flying-squid never sends it. */
function droppedItem (entity) {
  let item = null
  try {
    item = entity.getDroppedItem()
  } catch {} // no metadata: Item.fromNotch(undefined) throws
  return sighting('item', item?.name ?? 'unknown', entity.position, entity.position, item?.count ?? null)
}

// flying-squid 1.20.4 spawns players with a wrong entity type (state.js): a player is then known
// by its UUID, which in offline mode is of version 3 (a name's hash) where a mob's is random
// (version 4); its name comes from the player list, or stays unknown.
function isPlayer (entity) {
  return entity.type === 'player' || entity.uuid?.[14] === '3'
}

function playerName (bot, entity) {
  return entity.username ?? Object.values(bot.players).find((p) => p.uuid === entity.uuid)?.username ?? 'unknown'
}

function sighting (kind, name, position, centre, count = null) {
  return { kind, name, position, centre, count }
}

/** Whether a walk reaches beside a block, or next to an entity (approach.js's search). */
function reachable (bot, { kind, position: p }, searchRadius, movements) {
  const goal = kind === 'block' ? new goals.GoalGetToBlock(p.x, p.y, p.z) : new goals.GoalNear(p.x, p.y, p.z, 1)
  return walkable(bot, goal, searchRadius, undefined, movements)
}

function view ({ kind, name, position: p, count, distance }, frame, walk) {
  const round = kind === 'block' ? (v) => v : tidy
  return {
    kind,
    name,
    ...(count === null ? {} : { count }),
    position: { x: round(p.x), y: round(p.y), z: round(p.z) },
    ...frame.toEgo(p.floored()),
    distance: tidy(distance),
    reachable: walk
  }
}

module.exports = { find }
