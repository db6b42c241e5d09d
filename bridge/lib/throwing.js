'use strict'
// Items a player lets go of, on flying-squid 1.12.0: a click outside a window (what Mineflayer's
// bot.toss sends) throws what the cursor lets go of from the eyes along the look, as vanilla
// does, where flying-squid dropped nothing (the items vanished); and an item on the ground goes to
// the nearest player in reach who has room for it, where flying-squid gave it to whoever joined
// first and a full inventory nearest kept it from everyone. One entity per
// item, because a pickup (plugins/inventory.js collect) counts every entity as one item. Written
// as a flying-squid plugin so it could be offered upstream.
//
// Left out: the drop key (block_dig status 3 and 4), which flying-squid still answers itself.
const { Vec3 } = require('vec3')

// Vanilla's: a thrown item waits 40 ticks before anyone picks it up, and lies 5 minutes.
const THROWN_PICKUP_MS = 2000
const DESPAWN_MS = 5 * 60 * 1000
// Blocks a second, along the look and up: with flying-squid's gravity (20 blocks/s²) and ground
// friction (15 blocks/s²) a throw from standing lands about 2 blocks ahead, as vanilla's does.
const THROW_SPEED = 3
const THROW_LIFT = 1.5
const EYE_HEIGHT = 1.62
// flying-squid's pickup reach (plugins/entities.js): a player this near an item may pick it up.
const PICKUP_REACH = 1.75
// player.yaw is kept as the protocol's byte angle: 256 to a turn.
const BYTE_ANGLE_TURN = 256

/** Call straight after createMCServer. */
function install (serv) {
  const itemEntity = serv.registry.entitiesByName[serv.registry.version['<']('1.11') ? 'Item' : 'item'].id
  const nearby = serv.getNearby
  serv.getNearby = (where) => nearby(where).sort((a, b) => a.position.distanceTo(where.position) - b.position.distanceTo(where.position))
  serv.on('newPlayer', (player) => {
    const collect = player.collect
    // flying-squid offers an item only to the nearest player in reach: one who has no room for it
    // passes it on to the next nearest who has (vanilla's pickup).
    player.collect = (entity) => {
      if (hasRoom(player, entity)) return collect(entity)
      const other = serv.getNearby({ world: entity.world, position: entity.position, radius: PICKUP_REACH })
        .find((p) => p !== player && hasRoom(p, entity))
      other?.collect(entity)
    }
  })

  /** One entity of `item` per item of `count` at `position`, moving at `velocity` (blocks/s). */
  serv.dropItems = (player, item, count, position, velocity, pickupMs) => {
    for (let n = 0; n < count; n++) {
      serv.spawnObject(itemEntity, player.world, position, {
        velocity: velocity.clone(), itemId: item.type, itemDamage: item.metadata, pickupTime: pickupMs, deathTime: DESPAWN_MS
      })
    }
  }

  /** `count` of `item` thrown from `player`'s eyes the way they look (yaw only: world x east, z south). */
  serv.throwItems = (player, item, count) => {
    const yaw = (player.yaw * 2 * Math.PI) / BYTE_ANGLE_TURN // 0: south (+z), a quarter turn: west (-x)
    const along = new Vec3(-Math.sin(yaw), 0, Math.cos(yaw))
    const from = player.position.offset(along.x * 0.3, EYE_HEIGHT - 0.3, along.z * 0.3)
    serv.dropItems(player, item, count, from, along.scaled(THROW_SPEED).offset(0, THROW_LIFT, 0), THROWN_PICKUP_MS)
  }
}

/** Whether `player`'s inventory takes one more of the item entity's kind: a stack of it not full, or an empty slot. */
function hasRoom (player, entity) {
  const stacked = player.inventory.slots.some((i) => i && i.type === entity.itemId && i.count < i.stackSize)
  return stacked || player.inventory.firstEmptyInventorySlot() !== null
}

module.exports = { install }
