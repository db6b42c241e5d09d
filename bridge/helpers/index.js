'use strict'
// The capability helpers Python calls. Every action has one signature,
// `action(bot, args) -> plain object`, and reaches Python through invoke(),
// which answers one JSON string per call:
//   {"ok": true, "result": ...}  or  {"ok": false, "code": "...", "message": "..."}
const connection = require('./connection')
const { HelperError } = require('./errors')

// Every capability, by file. Each exports its actions by name. A world tool's own actions are
// in the file named as the tool (mc-observe-blocks: observe-blocks.js); the others serve the
// Python side itself (state, scans, goals, the map's survey, the viewer).
const ACTIONS = {
  ...pick(require('./state'), ['state', 'playerPose']),
  ...pick(require('./scan'), ['scanBox', 'blockAt']),
  ...pick(require('./goal'), ['checkGoal']),
  ...pick(require('./read-cells'), ['readCells']),
  ...pick(require('./contact'), ['forgetContacts']),
  ...pick(require('./digest'), ['digest']),
  ...pick(require('./grounds'), ['grounds']),
  ...pick(require('./viewer'), ['viewer']),
  ...pick(require('./status'), ['status']),
  ...pick(require('./look'), ['look']),
  ...pick(require('./move'), ['hold', 'step']),
  ...pick(require('./observe-blocks'), ['observe']),
  ...pick(require('./wait'), ['wait']),
  ...pick(require('./stop'), ['stop']),
  ...pick(require('./say'), ['chat']),
  ...pick(require('./dig'), ['dig']),
  ...pick(require('./place'), ['place']),
  ...pick(require('./place-as'), ['placeCell']),
  ...pick(require('./inventory'), ['inventory']),
  ...pick(require('./equip'), ['equip']),
  ...pick(require('./respawn'), ['respawn']),
  ...pick(require('./goto'), ['goto']),
  ...pick(require('./map'), ['survey']),
  ...pick(require('./pillar-up'), ['pillarUp']),
  ...pick(require('./dig-stairs'), ['digStairs']),
  ...pick(require('./tunnel'), ['tunnel']),
  ...pick(require('./find'), ['find']),
  ...pick(require('./approach'), ['approach']),
  ...pick(require('./collect'), ['collect']),
  ...pick(require('./follow'), ['follow']),
  ...pick(require('./build'), ['build']),
  ...pick(require('./chest'), ['chest']),
  ...pick(require('./give'), ['give']),
  ...pick(require('./tell'), ['tell']),
  ...pick(require('./inbox'), ['inbox']),
  ...pick(require('./team'), ['teamHoldings']),
  ...pick(require('./craft'), ['craft']),
  ...pick(require('./smelt'), ['smelt'])
}
// Actions a dead bot may still take.
const WHILE_DEAD = new Set(['respawn', 'forgetContacts'])

function pick (mod, names) {
  return Object.fromEntries(names.map((n) => [n, mod[n]]))
}

function reply (fn) {
  return Promise.resolve()
    .then(fn)
    .then((result) => JSON.stringify({ ok: true, result }))
    .catch((err) => JSON.stringify({
      ok: false,
      code: err instanceof HelperError ? err.code : 'internal',
      message: err instanceof HelperError ? err.message : `${err.name}: ${err.message}`
    }))
}

function usable (handle, name) {
  if (handle.ended) throw new HelperError('disconnected', `bot is disconnected: ${handle.ended}`)
  if (!handle.bot?.entity) throw new HelperError('not_spawned', 'bot has not spawned yet')
  if (handle.bot.isAlive === false && !WHILE_DEAD.has(name)) throw new HelperError('dead', 'the bot is dead; respawn it first')
  return handle.bot
}

/**
 * Rejects once the bot has left the server (kicked, the connection ended): an action in
 * flight waits on the world (a walk, a dig), which stops answering when the server goes,
 * so it is raced against this and ends as soon as the bot hears of it, not at its timeout.
 */
function whenEnded (handle) {
  let listener
  const ended = new Promise((resolve, reject) => {
    listener = () => { if (handle.ended) reject(new HelperError('disconnected', `bot is disconnected: ${handle.ended}`)) }
    handle.events.on('event', listener)
  })
  return { ended, stop: () => handle.events.off('event', listener) }
}

/** Runs one action by name; `argsJson` is a JSON object string. */
function invoke (handle, name, argsJson) {
  const watch = whenEnded(handle)
  return reply(() => {
    const action = ACTIONS[name]
    if (!action) throw new HelperError('unknown_action', `unknown action '${name}' (known: ${Object.keys(ACTIONS).join(', ')})`)
    return Promise.race([action(usable(handle, name), JSON.parse(argsJson)), watch.ended])
  }).finally(watch.stop)
}

module.exports = {
  createHandle: connection.createHandle,
  connect: (handle, argsJson) => reply(() => connection.connect(handle, JSON.parse(argsJson))),
  quit: (handle, reason) => reply(() => connection.quit(handle, reason)),
  quitAll: connection.quitAll,
  invoke,
  actions: () => Object.keys(ACTIONS),
  // For `mcagent bench bridge`: the cheapest round trip, and vectors for per-block calls from Python.
  ping: () => 'pong',
  Vec3: require('vec3').Vec3
}
