'use strict'
// Numbers are reported to a millionth (of a block, of a degree): float noise such as
// 89.99999999999443 or 4e-13 helps no reader. `+ 0` turns -0 into 0.
function tidy (value) {
  return Math.round(value * 1e6) / 1e6 + 0
}

module.exports = { tidy }
