'use strict'
// Handing items to a player as players do: walk up to them (or back from one too near), look
// their way, throw the items (bot.toss), and count what the server says they picked up (its
// collect packet, Mineflayer's playerCollect), one by one: what the player received is
// measured, not assumed. A throw that lies out of their reach (a loaded server's physics carries
// it further) is picked back up where it lies and thrown again. The giver's inventory is counted
// as the server keeps it (read back before each throw and at the end): a click the bot applied to
// its own copy is not proof the server threw. Positions are world blocks (x east, y up, z south).
const { goals } = require('mineflayer-pathfinder')
const { HelperError, required } = require('./errors')
const { Stop } = require('./stepwise')
const { walk, left } = require('./approach')
const { playerEntity } = require('./state')
const { carried, counts, asItems, itemKind, readBack } = require('./inventory')
const { waitFor } = require('./waiting')
const { pickUpLying } = require('./pickup')

// A throw lands about 2 blocks ahead (bridge/lib/throwing.js): from 2 to 3 blocks away it lands
// nearer the player than the giver. A player nearer than GIVE_MIN (two bots that joined at one
// spawn) stands where it flies over: the giver steps back first.
const GIVE_RANGE = 3
const GIVE_MIN = 2
// Ticks for a look to reach the server before the throw (one sends it; the second is margin).
const LOOK_SENT_TICKS = 2
// Item entities that appear this near the giver's eyes while it throws are its throw.
const THROWN_WITHIN = 3
// A thrown item waits 2 s before anyone may pick it up, then goes to a player within a tick or
// two; a loaded server takes longer.
const PICKUP_WAIT_MS = 8000
// Throws in all, the first included: each after the last one's items were picked back up.
const THROWS = 3
// Walks onto each item left lying (pickup.js).
const PICK_TRIES = 3
// A pickup's inventory update follows its collect packet within a tick or two; a loaded server's later.
const SLOT_UPDATE_MS = 2000

/** @param {{player: string, item: string, count?: number, timeout_s: number}} args count null: all carried */
async function give (bot, args) {
  const { player, item, count = null, timeout_s: timeoutS } = required(args, 'player', 'item', 'timeout_s')
  const kind = itemKind(bot, item)
  const deadline = Date.now() + timeoutS * 1000
  const isKind = (i) => i.type === kind.id
  const held = () => readBack(bot, left(deadline)).then(() => carried(bot, isKind))
  const had = await held()
  const n = Math.min(count ?? had, had)
  const target = playerEntity(bot, player)
  const watch = watchThrow(bot, target)
  let stop = null
  try {
    if (n === 0) throw new Stop('not_found', `no ${kind.name} carried`)
    if (!target) throw new Stop('not_found', `player '${player}' is not in view of ${bot.username}`)
    for (let round = 1, tossed = 0; watch.received() < n; round++) {
      if (round > 1) await pickBack(bot, watch, () => carried(bot, isKind) >= had - tossed + watch.returned(), deadline)
      const owed = Math.min(n - watch.received(), await held())
      if (round > THROWS || owed === 0) throw new Stop('incomplete', `${player} picked up ${watch.received()} of the ${n} thrown`)
      await throwTo(bot, target, kind, owed, deadline)
      tossed += owed
      await waitFor(() => watch.thrown() >= tossed && watch.lying().length === 0, Math.min(PICKUP_WAIT_MS, left(deadline)))
    }
  } catch (err) {
    if (!(err instanceof Stop) && !(err instanceof HelperError && err.code === 'timeout')) throw err
    stop = err
  } finally {
    watch.end()
  }
  const kept = await held().catch(() => carried(bot, isKind)) // past the deadline: the bot's own copy
  return {
    player,
    item: kind.name,
    asked: count,
    thrown: had - kept,
    received: watch.received(),
    stop_reason: stop?.reason ?? stop?.code ?? 'completed',
    detail: stop?.message ?? `${player} picked up ${watch.received()} ${kind.name}`,
    inventory: asItems(counts(bot))
  }
}

/** Walks within reach of `target` (back from one too near) and throws `count` of `kind` their way. */
async function throwTo (bot, target, kind, count, deadline) {
  const { x, y, z } = target.position
  await walk(bot, new goals.GoalNear(x, y, z, GIVE_RANGE), deadline, `walking to ${target.username}`)
  if (bot.entity.position.distanceTo(target.position) < GIVE_MIN) {
    await walk(bot, new goals.GoalInvert(new goals.GoalNear(x, y, z, GIVE_MIN)), deadline, `stepping back from ${target.username}`)
  }
  await bot.lookAt(target.position.offset(0, 1, 0), true)
  // Mineflayer sends the new look with the next physics tick, the toss at once: the server
  // would throw along the old look (away from the player, after stepping back).
  await bot.waitForTicks(LOOK_SENT_TICKS)
  await bot.toss(kind.id, null, count)
}

/**
 * Walks onto each thrown item still lying on the ground (pickup.js), so the server hands it back
 * to the giver; a few tries each. One still lying after them is where no walk picks it up. Then
 * waits until the inventory is `back()`: the server's pickup comes a moment before the update
 * that puts the item in a slot (a loaded run counted the giver's item neither lying nor carried).
 */
async function pickBack (bot, watch, back, deadline) {
  await pickUpLying(bot, {
    find: () => watch.lying()[0] ?? null,
    done: () => watch.lying().length === 0,
    walkTo: (goal) => walk(bot, goal, deadline, 'walking onto the thrown item'),
    tries: PICK_TRIES * watch.thrown(),
    deadline
  })
  const [lost] = watch.lying()
  if (lost) {
    const { x, y, z } = lost.position.floored()
    throw new Stop('incomplete', `a thrown item lies where no walk picks it up, at (${x}, ${y}, ${z})`)
  }
  await waitFor(back, Math.min(SLOT_UPDATE_MS, left(deadline)))
}

/**
 * Counts the item entities the bot throws from now, and which of them the `target` player's
 * entity (or anyone) picks up: by entity id, as a player's entity may carry no username.
 * `lying` are those thrown and still on the ground (seen, not picked up); `returned` those the giver picked back up.
 */
function watchThrow (bot, target) {
  const thrown = new Set()
  const picked = new Set()
  let received = 0
  let returned = 0
  const onSpawn = (entity) => {
    if (entity.name === 'item' && entity.position.distanceTo(bot.entity.position.offset(0, 1.62, 0)) <= THROWN_WITHIN) thrown.add(entity.id)
  }
  const onCollect = (collector, entity) => {
    if (!entity || !thrown.has(entity.id) || picked.has(entity.id)) return
    picked.add(entity.id)
    if (target && collector?.id === target.id) received++
    if (collector?.id === bot.entity.id) returned++
  }
  bot.on('entitySpawn', onSpawn)
  bot.on('playerCollect', onCollect)
  return {
    thrown: () => thrown.size,
    lying: () => [...thrown].filter((id) => !picked.has(id) && bot.entities[id]).map((id) => bot.entities[id]),
    received: () => received,
    returned: () => returned,
    end: () => { bot.removeListener('entitySpawn', onSpawn); bot.removeListener('playerCollect', onCollect) }
  }
}

module.exports = { give }
