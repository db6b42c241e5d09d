'use strict'
// Bounded waiting. Every wait in the helpers goes through here, so no bridge
// call can hang on a promise the world never settles.
const { HelperError } = require('./errors')

function sleep (ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Rejects with code 'timeout' after `ms`; runs `cleanup` on either outcome. */
function withTimeout (promise, ms, what, cleanup = () => {}) {
  let timer
  const timeout = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new HelperError('timeout', `${what} did not finish within ${ms / 1000} s`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer)
    cleanup()
  })
}

/** Polls `found` every `pollMs` until it returns something truthy or `ms` pass; returns its last value. */
async function waitFor (found, ms, pollMs = 50) {
  const until = Date.now() + ms
  for (;;) {
    const value = found()
    if (value || Date.now() >= until) return value
    await sleep(pollMs)
  }
}

module.exports = { sleep, withTimeout, waitFor }
