'use strict'
// Ends this Node process when the Python process that started it is gone.
// Python may die by SIGKILL, which runs no cleanup: without this the bot stays
// online and the server keeps its port forever.

// How often the parent is checked. Half a second keeps the exit well inside the
// few seconds we promise while costing nothing measurable.
const PARENT_POLL_MS = 500

// One lifeline per process. The bridge's is installed twice: before JSPyBridge's own code
// runs (bridge/preload.js, so that Python dying while the bridge starts still ends it) and
// by bridge/runtime.js, which adds the bots' cleanup.
let lifeline = null

/**
 * @param {object} opts
 * @param {boolean} opts.watchStdin exit when stdin ends (the JSPyBridge pipe).
 * @param {() => Promise<void>|void} [opts.beforeExit] best-effort cleanup.
 */
function install ({ watchStdin, beforeExit }) {
  lifeline ??= start()
  if (beforeExit) lifeline.cleanups.push(beforeExit)
  if (watchStdin && !lifeline.watchingStdin) {
    lifeline.watchingStdin = true
    process.stdin.on('end', () => lifeline.exit('stdin closed'))
  }
  return lifeline.exit
}

function start () {
  const parent = process.ppid
  const state = { cleanups: [], watchingStdin: false, exiting: false }
  state.exit = async (why) => {
    if (state.exiting) return
    state.exiting = true
    for (const cleanup of state.cleanups) {
      try { await cleanup(why) } catch (_) { /* exiting anyway */ }
    }
    process.exit(0)
  }
  const timer = setInterval(() => {
    if (process.ppid !== parent) state.exit('parent process died')
  }, PARENT_POLL_MS)
  timer.unref()
  return state
}

module.exports = { install, PARENT_POLL_MS }
