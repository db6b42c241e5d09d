'use strict'
// How long each generator takes to make one chunk, for `mcagent bench world`:
//   node bridge/chunk-bench.js '{"version": "1.20.4", "seed": 42, "chunks": 144, "generators": ["superflat", "natural"]}'
// Makes the chunks of a square around (0, 0), nearest first, once each, in this process (as
// flying-squid calls a generator: synchronously, one chunk at a time), after 4 untimed ones.
// Prints one JSON line: {generator: [ms per chunk, ...]}.
const registry = require('prismarine-registry')
const flyingSquidGenerators = require('flying-squid/src/lib/generations')
const natural = require('./lib/natural')

const WARMUP = 4
const OURS = { natural }

function spiral (count) {
  const cells = []
  for (let r = 0; cells.length < count + WARMUP; r++) {
    for (let x = -r; x <= r; x++) for (let z = -r; z <= r; z++) if (Math.max(Math.abs(x), Math.abs(z)) === r) cells.push([x, z])
  }
  return cells.slice(0, count + WARMUP)
}

function timings (name, { version, seed, chunks }) {
  const generator = (OURS[name] ?? flyingSquidGenerators[name])({ registry: registry(version), version, seed })
  return spiral(chunks).map(([x, z]) => {
    const start = process.hrtime.bigint()
    generator(x, z)
    return Number(process.hrtime.bigint() - start) / 1e6
  }).slice(WARMUP)
}

const options = JSON.parse(process.argv[2])
console.log(JSON.stringify(Object.fromEntries(options.generators.map((name) => [name, timings(name, options)]))))
