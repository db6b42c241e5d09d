'use strict'
// Placeholder: being written.
const { HelperError } = require('./errors')

function pillarUp () {
  throw new HelperError('internal', 'pillarUp is not written yet')
}

module.exports = { pillarUp }
