'use strict'
// Placeholder: being written.
const { HelperError } = require('./errors')

function tunnel () {
  throw new HelperError('internal', 'tunnel is not written yet')
}

module.exports = { tunnel }
