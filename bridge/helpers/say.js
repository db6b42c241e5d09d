'use strict'
// mc-say: one chat line sent.
const { required } = require('./errors')

function chat (bot, args) {
  const { text } = required(args, 'text')
  bot.chat(text)
  return { sent: text }
}

module.exports = { chat }
