'use strict'
// In the bridge process stderr carries JSPyBridge's messages and stdout is the
// Python program's own stdout (mcagent connect prints JSON there). Library
// chatter from mineflayer and friends goes to a log file instead.
const fs = require('fs')
const util = require('util')

function routeConsoleTo (path) {
  if (!path) return
  const write = (level) => (...args) => {
    const line = `${new Date().toISOString()} pid=${process.pid} ${level} ${util.format(...args)}\n`
    try { fs.appendFileSync(path, line) } catch (_) { /* logging must never break the bridge */ }
  }
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) console[level] = write(level)
  process.removeAllListeners('warning')
  process.on('warning', (w) => console.warn(w.stack || String(w)))
}

module.exports = { routeConsoleTo }
