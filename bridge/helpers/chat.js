'use strict'
// Reading chat components as plain text.

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

module.exports = { chatText }
