'use strict'
// Loaded by the JSPyBridge Node process before JSPyBridge's own code (NODE_OPTIONS=--require,
// set by agent/bridge/runtime.py for that process only): until Python has required
// bridge/runtime.js, nothing else would end this process if Python died.
require('./lib/lifeline').install({ watchStdin: true })
