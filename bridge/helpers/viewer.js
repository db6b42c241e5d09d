'use strict'
// The web viewer (prismarine-viewer): a browser page that renders what the bot sees.
// prismarine-viewer listens on every interface and has no host option; we make its
// server listen on the host we are given (127.0.0.1 unless asked otherwise).
const http = require('http')
const { mineflayer: startViewer } = require('prismarine-viewer')
const { HelperError, requireInteger } = require('./errors')
const { withTimeout } = require('./waiting')

// Binding a local port takes milliseconds.
const LISTEN_TIMEOUT_MS = 5000

/** Runs prismarine-viewer's setup with http servers that listen on `host` only. */
function onHost (host, setup) {
  const create = http.createServer
  let server = null
  http.createServer = (...args) => {
    server = create(...args)
    const listen = server.listen.bind(server)
    server.listen = (port, callback) => listen(port, host, callback)
    return server
  }
  try {
    setup()
  } finally {
    http.createServer = create
  }
  return server
}

/** @param {{port: number, host?: string, first_person?: boolean}} args */
async function viewer (bot, { port, host = '127.0.0.1', first_person: firstPerson = false }) {
  requireInteger('port', port, 0, 65535)
  if (bot.viewer) throw new HelperError('refused', 'the viewer is already running for this bot')
  const server = onHost(host, () => startViewer(bot, { port, firstPerson, viewDistance: 6 }))
  const ready = new Promise((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', (err) => reject(new HelperError('refused', err.code === 'EADDRINUSE'
      ? `port ${port} on ${host} is already in use; choose another viewer port`
      : `the viewer could not listen on ${host}:${port}: ${err.message}`)))
  })
  try {
    await withTimeout(ready, LISTEN_TIMEOUT_MS, 'starting the viewer')
  } catch (err) {
    bot.viewer?.close()
    delete bot.viewer
    throw err
  }
  const bound = server.address()
  return { url: `http://${bound.address}:${bound.port}/`, host: bound.address, port: bound.port, first_person: firstPerson }
}

module.exports = { viewer }
