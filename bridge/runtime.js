'use strict'
// Entry point of the JSPyBridge Node process: Python requires this module
// first. It ties the process's life to Python's, moves library chatter off the
// bridge's pipes, and hands Python the capability helpers.
const lifeline = require('./lib/lifeline')
const { routeConsoleTo } = require('./lib/console-log')
const helpers = require('./helpers')

routeConsoleTo(process.env.MCAGENT_BRIDGE_LOG)
lifeline.install({ watchStdin: true, beforeExit: () => helpers.quitAll('bridge parent exited') })
// A terminal's Ctrl-C reaches every process in the group. This one belongs to Python, which
// handles the interrupt, closes its bots through us, then ends us (or the lifeline does).
process.on('SIGINT', () => {})

module.exports = helpers
