'use strict'
// Ends this Node process when the Python process that started it is gone.
// Python may die by SIGKILL, which runs no cleanup: without this the bot stays
// online and the server keeps its port forever.

// How often the parent is checked. Half a second keeps the exit well inside the
// few seconds we promise while costing nothing measurable.
const PARENT_POLL_MS = 500

/**
 * @param {object} opts
 * @param {boolean} opts.watchStdin exit when stdin ends (the JSPyBridge pipe).
 * @param {() => Promise<void>|void} [opts.beforeExit] best-effort cleanup.
 */
function install ({ watchStdin, beforeExit }) {
  const parent = process.ppid
  let exiting = false
  const exit = async (why) => {
    if (exiting) return
    exiting = true
    try { await beforeExit?.(why) } catch (_) { /* exiting anyway */ }
    process.exit(0)
  }
  const timer = setInterval(() => {
    if (process.ppid !== parent) exit('parent process died')
  }, PARENT_POLL_MS)
  timer.unref()
  if (watchStdin) process.stdin.on('end', () => exit('stdin closed'))
  return exit
}

module.exports = { install, PARENT_POLL_MS }
