'use strict'
// Placeholder: being written.
const { HelperError } = require('./errors')

function digStairs () {
  throw new HelperError('internal', 'digStairs is not written yet')
}

module.exports = { digStairs }
