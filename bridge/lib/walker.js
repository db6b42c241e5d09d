'use strict'
// A scenario's walker: a player the server itself brings in (a mineflayer bot in the server's
// own process, so it goes when the server goes), for tasks about other players ("follow alex").
// It appears at the first point of its path and, `delay_s` after the first other player joins,
// walks the rest of the path with the pathfinder (no digging or building), then stands there.
// Points are world blocks (x east, y up, z south); it walks to each cell's centre.
const { Vec3 } = require('vec3')

// A leg of the path that takes longer than this is given up, and the next one tried.
const LEG_MS = 30000

/** The walker's spawn: the centre of its path's first cell. */
function walkerSpawn (walker) {
  const [x, y, z] = walker.path[0]
  return new Vec3(x + 0.5, y, z + 0.5)
}

/**
 * Brings the walker in once the server listens on `port`; resolves when it has spawned, so that
 * it is in before anyone it waits for. `log` takes one line for the server's log: a walker that
 * cannot walk says so there and never stops the server.
 */
async function startWalker (serv, { host, port, version }, walker, log) {
  // Loaded here, not with the server: most servers have no walker (about 30 ms of CPU a start).
  const mineflayer = require('mineflayer')
  const { pathfinder } = require('mineflayer-pathfinder')
  const bot = mineflayer.createBot({ host, port, version, username: walker.name, auth: 'offline', hideErrors: true })
  bot.loadPlugin(pathfinder)
  bot.on('error', (e) => log(`walker ${walker.name}: ${e.message}`))
  bot.on('kicked', (reason) => log(`walker ${walker.name} was kicked: ${reason}`))
  const met = new Promise((resolve) => serv.on('newPlayer', (p) => { if (p.username !== walker.name) resolve() }))
  await new Promise((resolve, reject) => {
    bot.once('spawn', resolve)
    bot.once('end', (reason) => reject(new Error(`walker ${walker.name} could not join: ${reason}`)))
  })
  met.then(() => new Promise((resolve) => setTimeout(resolve, walker.delay_s * 1000)))
    .then(() => walk(bot, walker.path.slice(1)))
    .then(() => log(`walker ${walker.name} reached the end of its path`))
    .catch((e) => log(`walker ${walker.name} stopped: ${e.message}`))
}

async function walk (bot, points) {
  const { Movements, goals } = require('mineflayer-pathfinder')
  const movements = new Movements(bot)
  movements.canDig = false
  movements.allow1by1towers = false
  movements.scafoldingBlocks = []
  bot.pathfinder.setMovements(movements)
  for (const [x, y, z] of points) {
    let timer
    const late = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error(`no way to (${x}, ${y}, ${z})`)), LEG_MS) })
    const going = bot.pathfinder.goto(new goals.GoalBlock(x, y, z))
    going.catch(() => {}) // stopped after the timer won: its own rejection says nothing new
    await Promise.race([going, late])
      .catch((e) => { bot.pathfinder.stop(); throw e })
      .finally(() => clearTimeout(timer))
  }
}

module.exports = { startWalker, walkerSpawn }
