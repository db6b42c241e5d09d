'use strict'
// Placing blocks in the state the click asks, where flying-squid 1.12.0 does not (it sets the
// item's block with a facing, a half and an axis, whatever the block): doors (both halves,
// the hinge by vanilla's rule, refused when the cell above is taken or the floor is not
// solid), torches (on a wall a wall torch facing away from it, on a floor a torch, under a
// ceiling nothing), slabs (top or bottom from the face and the cursor; a slab placed into its
// like makes a double one) and trapdoors (against a wall: facing away from it, the half from
// the cursor; on a floor or a ceiling: facing the placer, bottom or top). Using a wooden door
// or trapdoor opens or closes it (a door's two halves together), and digging one half of a
// door takes the other with it. The rules themselves are placing-rules.js, which the bot
// reads too. Left out, as vanilla has them: fence gates opening, redstone power.
const { Vec3 } = require('vec3')
const rules = require('./placing-rules')

// Blocks a hand cannot open (redstone does).
const BY_REDSTONE_ONLY = new Set(['iron_door', 'iron_trapdoor'])

function install (serv) {
  if (!serv.supportFeature('theFlattening')) return // states are metadata before 1.13
  const { registry } = serv
  const Block = require('prismarine-block')(registry)
  const cursors = new WeakMap() // the point each player last clicked, on the block clicked
  const cursorOf = (player) => cursors.get(player) ?? new Vec3(0.5, 0.5, 0.5)

  const stateId = (name, state) => {
    const block = registry.blocksByName[name]
    return Block.fromProperties(name, { ...Block.fromStateId(block.defaultState).getProperties(), ...state }).stateId
  }
  const placing = (name, state) => ({ id: registry.blocksByName[name].id, data: stateId(name, state) - registry.blocksByName[name].minStateId })
  const blockAt = async (world, pos) => world.getBlock(pos)

  serv.on('newPlayer', (player) => {
    player._client.on('block_place', ({ cursorX, cursorY, cursorZ }) => {
      const scale = serv.supportFeature('blockPlaceHasIntCursor') ? 16 : 1
      cursors.set(player, new Vec3(cursorX / scale, cursorY / scale, cursorZ / scale))
    })
    player.on('dug', ({ position, block }) => {
      if (rules.ruleOf(block.name) === 'door') removeOtherHalf(player.world, position, block).catch((e) => serv.err(e.stack))
    })
  })

  /** What the click placing `item` asks, with where it lands; null when it lands nowhere. */
  const clickOf = ({ player, direction, referencePosition, placedPosition, properties }) => {
    const at = referencePosition.plus(cursorOf(player)).minus(placedPosition)
    return { face: rules.FACE_OF_DIRECTION[direction], at, facing: properties.facing }
  }

  const placeSlab = async (data) => {
    const { item, player, referencePosition, placedPosition } = data
    const click = clickOf(data)
    const clicked = await blockAt(player.world, referencePosition)
    // Where on the clicked slab's own cell the click was: the cursor itself.
    if (clicked.name === item.name && rules.doublesSlab(clicked.getProperties().type, click.face, cursorOf(player))) {
      // The clicked slab itself becomes double: flying-squid would place across its face.
      await player.setBlock(referencePosition, stateId(item.name, { type: 'double' }))
      useOneHeld(player)
      return {}
    }
    const there = await blockAt(player.world, placedPosition)
    if (there.name === item.name && there.getProperties().type !== 'double') return placing(item.name, { type: 'double' })
    if (there.boundingBox !== 'empty') return {}
    return placing(item.name, rules.placedState(item.name, {}, click).state)
  }

  const placeDoor = async (data) => {
    const { item, player, placedPosition } = data
    const world = player.world
    const above = placedPosition.offset(0, 1, 0)
    const [there, upper, floor] = await Promise.all([placedPosition, above, placedPosition.offset(0, -1, 0)].map((p) => blockAt(world, p)))
    if (there.boundingBox !== 'empty' || upper.boundingBox !== 'empty' || !rules.fullCube(floor)) return {}
    const click = clickOf(data)
    const sides = await hingeSides(world, placedPosition, click.facing, item.name)
    const { state } = rules.placedState(item.name, {}, click, sides)
    await player.setBlock(above, stateId(item.name, { ...state, half: 'upper' }))
    return placing(item.name, state)
  }

  const hingeSides = async (world, pos, facing, name) => {
    const read = (offsets) => Promise.all(offsets.map(([dx, dy, dz]) => blockAt(world, pos.offset(dx, dy, dz))))
    const { left, right } = rules.hingeNeighbours(facing)
    const [l, r] = await Promise.all([read(left), read(right)])
    const lowerDoor = (b) => b.name === name && b.getProperties().half === 'lower'
    return { left: l.filter(rules.fullCube).length, right: r.filter(rules.fullCube).length, leftDoor: lowerDoor(l[0]), rightDoor: lowerDoor(r[0]) }
  }

  // A trapdoor or a torch: its state from the click alone, into an empty cell against a solid face.
  const placeByClick = async (data) => {
    const { item, player, referencePosition, placedPosition } = data
    const [there, clicked] = await Promise.all([placedPosition, referencePosition].map((p) => blockAt(player.world, p)))
    if (there.boundingBox !== 'empty' || clicked.boundingBox !== 'block') return {}
    const placed = rules.placedState(item.name, {}, clickOf(data))
    if (placed === null || (placed.name !== item.name && !rules.fullCube(clicked))) return {} // a wall torch hangs on a full block
    return placing(placed.name, placed.state)
  }

  const removeOtherHalf = async (world, pos, block) => {
    const other = pos.offset(0, block.getProperties().half === 'lower' ? 1 : -1, 0)
    if ((await blockAt(world, other)).name === block.name) await serv.setBlock(world, other, 0)
  }

  // Using a door or a trapdoor opens it or closes it; a door's other half follows.
  const toggle = async ({ block, player }) => {
    if (player.crouching || BY_REDSTONE_ONLY.has(block.name)) return false
    const state = block.getProperties()
    const open = !state.open
    await player.setBlock(block.position, stateId(block.name, { ...state, open }))
    if (rules.ruleOf(block.name) === 'door') {
      const other = block.position.offset(0, state.half === 'lower' ? 1 : -1, 0)
      const half = await blockAt(player.world, other)
      if (half.name === block.name) await player.setBlock(other, stateId(block.name, { ...half.getProperties(), open }))
    }
    return true
  }

  const handlers = { door: placeDoor, trapdoor: placeByClick, torch: placeByClick, slab: placeSlab }
  for (const item of registry.itemsArray) {
    const rule = rules.ruleOf(item.name)
    if (rule && registry.blocksByName[item.name]) serv.onItemPlace(item.name, handlers[rule])
    if (rule === 'door' || rule === 'trapdoor') serv.onBlockInteraction(item.name, toggle)
  }
}

/** One of the held stack used up, as flying-squid does when it places a block itself. */
function useOneHeld (player) {
  if (player.gameMode !== 0) return
  const slot = 36 + player.heldItemSlot
  const held = player.inventory.slots[slot]
  held.count--
  player.inventory.updateSlot(slot, held.count === 0 ? null : held)
}

module.exports = { install }
