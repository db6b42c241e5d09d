'use strict'
// Runs a flying-squid Minecraft server as its own process.
//
//   node bridge/server.js '{"port": 0, "version": "1.20.4", ...}'
//
// The one argument is a JSON object of flying-squid options (Python's
// ServerSettings writes it). Protocol on stdout, one JSON object per line:
//   {"mcagent": "ready", "host", "port", "version", "generator", "seed", "world", "scenario"}
// The options may carry `mcagent_scenario` (see lib/scenario.js), built before "ready" (its
// walker, lib/walker.js, joins before "ready" too), and
// `mcagent_journal`, a file of block changes (lib/block-journal.js): those it holds are put
// back after the scenario ("restored" in "ready" counts them), and every later one is added;
// `mcagent_operators`, the players made operators by name (lib/operators.js).
//   {"mcagent": "error", "message"}         then exit code 1
// Every other stdout line is the server's own log.
//
// It stops on SIGTERM/SIGINT and when the parent process dies. Run it with stdin
// closed: flying-squid's console reads stdin and would answer anything there.
const { Vec3 } = require('vec3')
const lifeline = require('./lib/lifeline')
const { buildScenario, dryLandSpawn } = require('./lib/scenario')
const { applyFixes } = require('./lib/flying-squid-fixes')
const journal = require('./lib/block-journal')
const { burnPlayersInLava } = require('./lib/lava-damage')
const drops = require('./lib/drops')
const windows = require('./lib/windows')
const throwing = require('./lib/throwing')
const containers = require('./lib/containers')
const crafting = require('./lib/crafting')
const furnaces = require('./lib/furnaces')
const placing = require('./lib/placing')
const { startWalker } = require('./lib/walker')
const operators = require('./lib/operators')
const whispers = require('./lib/whispers')

// Kicking players on shutdown normally takes milliseconds.
const KICK_WAIT_MS = 1000
// Kicking, closing the socket (flying-squid waits up to 1 s) and saving; inside Python's 5 s.
const SHUTDOWN_GRACE_MS = 4000
// Generators that must never run: 'empty' spins flying-squid at 100 % CPU and ignores SIGTERM.
const REFUSED_GENERATORS = { empty: "generator 'empty' hangs flying-squid at 100 % CPU; use 'superflat' with a scenario instead" }

function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function emit (kind, fields) {
  process.stdout.write(JSON.stringify({ mcagent: kind, ...fields }) + '\n')
}

function fail (message) {
  emit('error', { message })
  process.exit(1)
}

// Generators of our own, by name: flying-squid require()s a name it does not know.
const OUR_GENERATORS = { natural: require.resolve('./lib/natural') }

function parseOptions (argv) {
  if (argv.length !== 1) fail('usage: node server.js \'<json options>\'')
  let options
  try { options = JSON.parse(argv[0]) } catch (e) { fail(`options are not valid JSON: ${e.message}`) }
  const generator = options.generation?.name
  if (REFUSED_GENERATORS[generator]) fail(REFUSED_GENERATORS[generator])
  return options
}

/** flying-squid's options, with one of our generators' names made the module's path. */
function forFlyingSquid (options) {
  const module = OUR_GENERATORS[options.generation?.name]
  return module ? { ...options, generation: { ...options.generation, name: module } } : options
}

// flying-squid loads exit-hook (asynchronously, at an unpredictable moment), whose SIGTERM
// handler exits at once, before the world is saved. exit-hook installs its signal handlers
// only on its first use: use it first, then put our handlers in their place.
function takeOverSignals (stop) {
  require('exit-hook')(() => {})
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.removeAllListeners(signal)
    process.once(signal, stop)
  }
}

async function main () {
  const options = parseOptions(process.argv.slice(2))
  const { createMCServer } = require('flying-squid')
  let serv
  const stop = async () => {
    // Exit code 1 says the shutdown did not finish (the world may not be saved).
    const guard = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS)
    // quit() waits for every kicked player to disconnect, forever if one already left
    // mid-kick: give it a moment, then save the world whatever it is doing.
    await Promise.race([serv?.quit('Server stopped'), sleep(KICK_WAIT_MS)]).catch(() => {})
    // The world saves changed chunks once a second; flush what is queued.
    await Promise.all([serv?.overworld?.waitSaving(), serv?.netherworld?.waitSaving()]).catch(() => {})
    clearTimeout(guard)
    process.exit(0)
  }
  lifeline.install({ watchStdin: false, beforeExit: stop })
  takeOverSignals(stop)
  try {
    serv = createMCServer(forFlyingSquid(options))
  } catch (e) {
    fail(e.message)
  }
  applyFixes(serv)
  burnPlayersInLava(serv)
  operators.install(serv, options.mcagent_operators ?? [])
  whispers.install(serv)
  drops.install(serv) // first: a chest or a furnace dug adds what it held to the block's own drops
  throwing.install(serv)
  windows.install(serv)
  containers.install(serv)
  crafting.install(serv)
  furnaces.install(serv)
  placing.install(serv)
  serv.once('error', (e) => fail(e.code === 'EADDRINUSE' ? `port ${options.port} is already in use on ${options.host}` : e.message))
  serv.once('ready', async () => {
    const scenario = options.mcagent_scenario
    if (scenario) await buildScenario(serv, scenario).catch((e) => fail(e.message))
    else if (OUR_GENERATORS[options.generation?.name]) await spawnOnDryLand(serv).catch((e) => fail(e.message))
    const restored = await restoreChanges(serv, options.mcagent_journal).catch((e) => fail(`block journal: ${e.message}`))
    if (scenario?.walker) {
      const where = { host: options.host, port: serv.listeningPort, version: options.version }
      await startWalker(serv, where, scenario.walker, (line) => process.stdout.write(line + '\n')).catch((e) => fail(e.message))
    }
    emit('ready', {
      restored,
      host: options.host,
      port: serv.listeningPort,
      version: options.version,
      generator: options.generation?.name,
      seed: options.generation?.options?.seed,
      world: options.worldFolder ?? null,
      scenario: scenario?.name ?? null
    })
  })
}

/** Players join on the dry land nearest the world's centre (flying-squid's own pick wanders
 * 30 blocks at random and may land on a tree). */
async function spawnOnDryLand (serv) {
  const at = new Vec3(...await dryLandSpawn(serv, { x: 0.5, z: 0.5 }))
  serv.getSpawnPoint = async () => at
}

async function restoreChanges (serv, file) {
  if (!file) return 0
  const restored = await journal.replay(serv, file)
  journal.record(serv, file)
  return restored
}

main().catch((e) => fail(e.stack || String(e)))
