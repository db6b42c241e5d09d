'use strict'
// Chat: sending, and reading chat components as plain text.
const { HelperError } = require('./errors')

// The protocol's limit for one chat message.
const MAX_CHAT_LENGTH = 256

/** Plain text of a chat component (a string, its JSON, or the parsed object). */
function chatText (component) {
  if (component === undefined || component === null) return ''
  if (typeof component === 'string') {
    try { return chatText(JSON.parse(component)) } catch (_) { return component }
  }
  if (typeof component !== 'object') return String(component)
  if (component.type && 'value' in component) return chatText(component.value) // NBT-wrapped
  const own = component.text ?? component.translate ?? ''
  const extra = Array.isArray(component.extra) ? component.extra.map(chatText).join('') : ''
  const args = Array.isArray(component.with) ? ` ${component.with.map(chatText).join(' ')}` : ''
  return `${chatText(own)}${args}${extra}`
}

function chat (bot, { text }) {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_CHAT_LENGTH) {
    throw new HelperError('bad_args', `text must be a string of 1 to ${MAX_CHAT_LENGTH} characters`)
  }
  bot.chat(text)
  return { sent: text }
}

module.exports = { chat, chatText, MAX_CHAT_LENGTH }
