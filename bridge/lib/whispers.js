'use strict'
// /tell <player> <message> (also /msg and /w), which flying-squid 1.12.0 lacks: a line only its
// addressee sees, in vanilla's words ("alex whispers to you: ..."), so that Mineflayer hears
// a 'whisper'. A chat secret said this way is heard by the bot alone (agent/chat/commander.py).
const { UserError } = require('flying-squid')

function install (serv) {
  serv.commands.add({
    base: 'tell',
    aliases: ['msg', 'w'],
    info: 'Whisper to one player',
    usage: '/tell <player> <message>',
    onlyPlayer: true,
    op: false,
    parse: (params) => params.match(/^(\S+) (.+)$/) || false,
    action ([, name, message], { player }) {
      const to = serv.getPlayer(name)
      if (!to) throw new UserError(`no player named ${name} is here`)
      to.chat(`${player.username} whispers to you: ${message}`)
      player.chat(`You whispered to ${to.username}`) // not what: it may be a secret
    }
  })
}

module.exports = { install }
