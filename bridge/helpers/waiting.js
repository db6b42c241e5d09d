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

module.exports = { sleep, withTimeout }
