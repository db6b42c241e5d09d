'use strict'
// Placeholder: being written.
const { HelperError } = require('./errors')

function survey () {
  throw new HelperError('internal', 'survey is not written yet')
}

module.exports = { survey }
