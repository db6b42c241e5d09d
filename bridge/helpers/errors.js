'use strict'
// An expected failure with a short machine-readable code the Python side can branch on.
class HelperError extends Error {
  constructor (code, message) {
    super(message)
    this.code = code
  }
}

module.exports = { HelperError }
