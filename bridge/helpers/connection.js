'use strict'
// Joining and leaving a server. A handle is created first so that Python can
// subscribe to its event channel before anything happens; then connect() joins
// and resolves on spawn, or rejects with a reason a person can act on.
const { EventEmitter } = require('events')
const mineflayer = require('mineflayer')
const minecraftData = require('minecraft-data')
const { ping } = require('minecraft-protocol')
const { pathfinder } = require('mineflayer-pathfinder')
const { HelperError } = require('./errors')
const { withTimeout } = require('./waiting')
const { chatText } = require('./chat')
const { state } = require('./state')
const { watchContacts } = require('./contact')
const { watchInbox } = require('./inbox')
const { mineflayerFixes } = require('./mineflayer-fixes')

// A status ping answers within milliseconds on a live server.
const PING_TIMEOUT_MS = 5000
// After bot.quit() the server normally closes the socket at once; past this we stop waiting.
const QUIT_TIMEOUT_MS = 2000

const handles = new Set()

function createHandle () {
  const handle = { events: new EventEmitter(), bot: null, ended: null }
  handles.add(handle)
  return handle
}

// Bot events Python hears about, each turned into a plain JSON payload.
const FORWARDED = {
  spawn: () => ({}),
  death: () => ({}),
  respawn: () => ({}),
  forcedMove: () => ({}), // the server moved the bot (teleport, correction)
  kicked: (reason, loggedIn) => ({ reason: chatText(reason), logged_in: loggedIn }),
  end: (reason) => ({ reason: String(reason ?? '') }),
  error: (err) => ({ message: err?.message ?? String(err), code: err?.code ?? null }),
  chat: (username, message) => ({ username, message }),
  whisper: (username, message) => ({ username, message })
}

function forwardEvents (handle) {
  for (const [kind, payload] of Object.entries(FORWARDED)) {
    handle.bot.on(kind, (...args) => {
      if (kind === 'kicked') handle.ended = `kicked: ${chatText(args[0])}`
      if (kind === 'end' && !handle.ended) handle.ended = `connection ended (${args[0] ?? 'no reason'})`
      handle.events.emit('event', JSON.stringify({ kind, ...payload(...args), time: Date.now() / 1000 }))
    })
  }
}

function describeJoinError (err, where) {
  if (err.code === 'ECONNREFUSED') return new HelperError('connection_refused', `no server is listening at ${where}`)
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return new HelperError('host_not_found', `cannot resolve host of ${where}`)
  if (err.code === 'ETIMEDOUT' || err.code === 'EHOSTUNREACH') return new HelperError('unreachable', `${where} is unreachable (${err.code})`)
  return new HelperError('join_failed', `joining ${where} failed: ${err.message}`)
}

function waitForSpawn (bot, where) {
  return new Promise((resolve, reject) => {
    bot.once('spawn', resolve)
    bot.once('error', (err) => reject(describeJoinError(err, where)))
    bot.once('kicked', (reason) => reject(new HelperError('kicked', `${where} refused the bot: ${chatText(reason)}`)))
    bot.once('end', (reason) => reject(new HelperError('disconnected', `${where} closed the connection before spawn (${reason})`)))
  })
}

/**
 * A client of another version cannot even parse the server's refusal, so when a
 * version is asked for, compare protocols first and say plainly what differs.
 */
async function checkVersion (args, where) {
  const wanted = minecraftData(args.version)?.version
  if (!wanted) throw new HelperError('unsupported_version', `Minecraft ${args.version} is not a version mineflayer knows`)
  const status = await withTimeout(ping({ host: args.host, port: args.port, closeTimeout: PING_TIMEOUT_MS }), PING_TIMEOUT_MS, `pinging ${where}`)
    .catch((err) => { throw err instanceof HelperError ? err : describeJoinError(err, where) })
  if (status.version?.protocol !== wanted.version) {
    throw new HelperError('version_mismatch', `${where} speaks Minecraft ${status.version?.name} (protocol ${status.version?.protocol}), not ${args.version} (protocol ${wanted.version}); leave the version out to use the server's`)
  }
}

/**
 * @param {object} handle from createHandle()
 * @param {{host: string, port: number, username: string, version: string|null, timeout_ms: number}} args
 */
async function connect (handle, args) {
  const where = `${args.host}:${args.port}`
  if (args.version) await checkVersion(args, where)
  const bot = mineflayer.createBot({
    host: args.host,
    port: args.port,
    username: args.username,
    version: args.version ?? false, // false: ask the server which version it speaks
    auth: 'offline',
    respawn: false, // a death stays visible until the planner respawns (respawn.js)
    hideErrors: true
  })
  bot.loadPlugin(pathfinder)
  bot.loadPlugin(mineflayerFixes)
  watchContacts(bot)
  watchInbox(bot)
  handle.bot = bot
  handle.server = where
  forwardEvents(handle)
  try {
    await withTimeout(waitForSpawn(bot, where), args.timeout_ms, `joining ${where}`)
  } catch (err) {
    handle.ended = err.message
    bot.end()
    throw err
  }
  return state(bot)
}

async function quit (handle, reason = 'client quit') {
  handles.delete(handle)
  const bot = handle.bot
  if (!bot || handle.ended) return { already_ended: true }
  handle.ended = reason
  bot.viewer?.close() // its web server would keep the process alive
  const ended = new Promise((resolve) => bot.once('end', resolve))
  bot.quit(reason)
  await withTimeout(ended, QUIT_TIMEOUT_MS, 'leaving the server').catch(() => bot.end())
  return { already_ended: false }
}

function quitAll (reason) {
  return Promise.all([...handles].map((h) => quit(h, reason)))
}

/**
 * The bots of this bridge process in the world `bot` plays in (joined to the same server and
 * still there), `bot` first: a team (issue 39). Bots of other processes are not known here.
 */
function teamOf (bot) {
  const own = [...handles].find((h) => h.bot === bot)
  const mates = [...handles].filter((h) => h !== own && own && h.server === own.server && !h.ended && h.bot?.entity)
  return [bot, ...mates.map((h) => h.bot)]
}

module.exports = { createHandle, connect, quit, quitAll, teamOf }
