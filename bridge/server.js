'use strict'
// Runs a flying-squid Minecraft server as its own process.
//
//   node bridge/server.js '{"port": 0, "version": "1.20.4", ...}'
//
// The one argument is a JSON object of flying-squid options (Python's
// ServerSettings writes it). Protocol on stdout, one JSON object per line:
//   {"mcagent": "ready", "host", "port", "version", "generator", "seed", "world"}
//   {"mcagent": "error", "message"}         then exit code 1
// Every other stdout line is the server's own log.
//
// It stops on SIGTERM/SIGINT and when the parent process dies. Run it with stdin
// closed: flying-squid's console reads stdin and would answer anything there.
const lifeline = require('./lib/lifeline')

// flying-squid waits 1 s for its socket to close; saving the world needs a moment more.
const SHUTDOWN_GRACE_MS = 3000
// Generators that must never run: 'empty' spins flying-squid at 100 % CPU and ignores SIGTERM.
const REFUSED_GENERATORS = { empty: "generator 'empty' hangs flying-squid at 100 % CPU; use 'superflat' with a scenario instead" }

function emit (kind, fields) {
  process.stdout.write(JSON.stringify({ mcagent: kind, ...fields }) + '\n')
}

function fail (message) {
  emit('error', { message })
  process.exit(1)
}

function parseOptions (argv) {
  if (argv.length !== 1) fail('usage: node server.js \'<json options>\'')
  let options
  try { options = JSON.parse(argv[0]) } catch (e) { fail(`options are not valid JSON: ${e.message}`) }
  const generator = options.generation?.name
  if (REFUSED_GENERATORS[generator]) fail(REFUSED_GENERATORS[generator])
  return options
}

async function main () {
  const options = parseOptions(process.argv.slice(2))
  const { createMCServer } = require('flying-squid')
  let serv
  const stop = async () => {
    const guard = setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS)
    try {
      await serv?.quit('Server stopped')
      // The world saves changed chunks once a second; flush what is queued before exiting.
      await Promise.all([serv?.overworld?.waitSaving(), serv?.netherworld?.waitSaving()])
    } catch (_) { /* exiting anyway */ }
    clearTimeout(guard)
    process.exit(0)
  }
  lifeline.install({ watchStdin: false, beforeExit: stop })
  try {
    serv = createMCServer(options)
  } catch (e) {
    fail(e.message)
  }
  serv.once('error', (e) => fail(e.code === 'EADDRINUSE' ? `port ${options.port} is already in use on ${options.host}` : e.message))
  serv.once('ready', () => {
    // flying-squid's own exit hook exits on SIGTERM without waiting for the world to save.
    process.removeAllListeners('SIGTERM')
    process.removeAllListeners('SIGINT')
    process.once('SIGTERM', stop)
    process.once('SIGINT', stop)
    emit('ready', {
      host: options.host,
      port: serv.listeningPort,
      version: options.version,
      generator: options.generation?.name,
      seed: options.generation?.options?.seed,
      world: options.worldFolder ?? null
    })
  })
}

main().catch((e) => fail(e.stack || String(e)))
