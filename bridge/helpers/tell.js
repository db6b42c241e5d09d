'use strict'
// mc-tell: a line to one player, whispered (/tell), so that it reaches its addressee alone: a
// teammate not asked does not read it as meant for them (bridge/lib/whispers.js gives the local
// server the command; vanilla and Paper have it).
const { required } = require('./errors')

/** @param {{player: string, text: string}} args */
function tell (bot, args) {
  const { player, text } = required(args, 'player', 'text')
  // The tab list: a whisper to a name not in it goes nowhere, and the server's refusal is a chat
  // line worded differently by each server.
  if (!bot.players[player]) return { player, sent: null, stop_reason: 'not_found', detail: `no player named ${player} is online` }
  if (player === bot.username) return { player, sent: null, stop_reason: 'not_found', detail: 'a bot does not tell itself' }
  bot.chat(`/tell ${player} ${text}`)
  return { player, sent: text, stop_reason: 'completed', detail: `whispered to ${player}` }
}

module.exports = { tell }
