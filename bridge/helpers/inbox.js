'use strict'
// What other players said to the bot since the planner last read it: their chat lines and their
// whispers to it, in the order heard. Not the server's lines (they match no player's pattern, so
// Mineflayer names no username), nor the bot's own. Kept by username for the whole bridge
// process, as contact.js keeps its record, so a bot that joins again (a rejoin makes a new bot)
// still has what it was told and not yet read.
const touchedBy = new Map() // username -> [{player, text, whispered, time}], oldest first

// A player's name as the game allows it: what Mineflayer parsed out of a line that is not a
// player's is something else.
const PLAYER_NAME = /^\w{3,16}$/
// Lines kept unread per bot; past it the oldest go (a chatty server must not grow the bridge).
const MAX_UNREAD = 64

function heard (bot, player, text, whispered) {
  if (!PLAYER_NAME.test(player ?? '') || player === bot.username) return
  const unread = touchedBy.get(bot.username) ?? []
  unread.push({ player, text: String(text), whispered, time: Date.now() / 1000 })
  touchedBy.set(bot.username, unread.slice(-MAX_UNREAD))
}

/** Starts keeping what players say to the bot (connection.js, on every join). */
function watchInbox (bot) {
  bot.on('chat', (player, text) => heard(bot, player, text, false))
  bot.on('whisper', (player, text) => heard(bot, player, text, true))
}

/** The lines heard since the last reading, oldest first; they are read from then on. */
function inbox (bot) {
  const unread = touchedBy.get(bot.username) ?? []
  touchedBy.delete(bot.username)
  return { messages: unread }
}

/** How many lines wait unread, leaving them unread. */
function unread (bot) {
  return (touchedBy.get(bot.username) ?? []).length
}

module.exports = { watchInbox, inbox, unread }
