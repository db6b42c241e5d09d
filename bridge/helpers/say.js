'use strict'
// mc-say: one chat line sent.

function chat (bot, { text }) {
  bot.chat(text)
  return { sent: text }
}

module.exports = { chat }
