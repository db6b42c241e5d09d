'use strict'
// The state a block is placed in, as vanilla 1.20 decides it from the click: the face of the
// block clicked, where on the face (the cursor), and the placer's horizontal facing. One
// description of the game's rules, read by both sides: the server (placing.js) applies it to
// the kinds flying-squid 1.12.0 gets wrong (doors, trapdoors, torches, slabs), the bot
// (helpers/place-as.js) predicts with it which click gives the state a blueprint asks. For
// every other kind it says what flying-squid's placeBlock.js does, which is vanilla's for
// stairs and pillars: facing = the placer's facing, half from the face and the cursor, axis
// from the face.
//
// A click: {face, at, facing}. `face` is the clicked face of the block clicked, named by the
// way it points (up, down, north, south, west, east): the new block lands across it. `at` is
// the point clicked, relative to the new block's cell (x east, y up, z south; 0..1 inside it).
// `facing` is the placer's horizontal facing.

const FACES = {
  down: [0, -1, 0], up: [0, 1, 0], north: [0, 0, -1], south: [0, 0, 1], west: [-1, 0, 0], east: [1, 0, 0]
}
// The block_place packet's `direction`, by number.
const FACE_OF_DIRECTION = ['down', 'up', 'north', 'south', 'west', 'east']
const OPPOSITE = { north: 'south', south: 'north', west: 'east', east: 'west', up: 'down', down: 'up' }
// Turning a quarter to the left, seen from above (vanilla's getCounterClockWise).
const LEFT_OF = { north: 'west', west: 'south', south: 'east', east: 'north' }
const AXIS_OF = { down: 'y', up: 'y', north: 'z', south: 'z', west: 'x', east: 'x' }
const HORIZONTAL = ['north', 'east', 'south', 'west']

/** The kind of placement rule a block follows, by name; null for the generic rule. */
function ruleOf (name) {
  if (name.endsWith('_trapdoor')) return 'trapdoor'
  if (name.endsWith('_door')) return 'door'
  if (name.endsWith('_slab')) return 'slab'
  if (name === 'torch' || name === 'soul_torch') return 'torch'
  return null
}

/** The item that places the block `name` (a wall torch is placed with a torch). */
function itemOf (name) {
  return name.replace(/(^|_)wall_(torch|sign|banner|head|skull|fan)$/, '$1$2')
}

/**
 * The placer's horizontal facing, as flying-squid reads it: the way from where the placer
 * stands to the cell placed in (vanilla reads the look's yaw, which agrees when the placer
 * looks at what it places). `from` is the placer's position, `cell` the block's.
 */
function placerFacing (from, cell) {
  const dx = from.x - (cell.x + 0.5)
  const dz = from.z - (cell.z + 0.5)
  const angle = Math.atan2(dx, -dz) * 180 / Math.PI + 180
  return HORIZONTAL[Math.floor(angle / 90 + 0.5) & 3]
}

/**
 * The placer's facing the state `{name, state}` asks for, or null when any facing gives it. A
 * block hung on a wall (a wall torch, a trapdoor) faces away from the wall, toward a placer
 * that sees the wall's face; a trapdoor on a floor faces the placer too.
 */
function facingNeeded ({ name, state }) {
  if (!state.facing) return null
  if (ruleOf(name) === 'trapdoor' || name.endsWith('wall_torch')) return OPPOSITE[state.facing]
  return state.facing
}

/**
 * The cells whose blocks decide a door's hinge, as offsets from its lower half: the left and
 * right of the placer, at both halves' height ({side: [[dx, dy, dz], ...]}).
 */
function hingeNeighbours (facing) {
  const [lx, , lz] = FACES[LEFT_OF[facing]]
  return { left: [[lx, 0, lz], [lx, 1, lz]], right: [[-lx, 0, -lz], [-lx, 1, -lz]] }
}

/**
 * Vanilla's hinge (DoorBlock.getHinge): toward the side with more full blocks; with as many on
 * each side, away from a door's lower half beside it; else the side of the door's middle the
 * click was on. `sides`: {left, right} full blocks on each side (0..2), {leftDoor, rightDoor}.
 */
function hingeOf (facing, at, sides) {
  const balance = sides.right - sides.left
  if ((sides.leftDoor && !sides.rightDoor) || balance > 0) return 'right'
  if ((sides.rightDoor && !sides.leftDoor) || balance < 0) return 'left'
  const [sx, , sz] = FACES[facing]
  const rightHalf = (sx < 0 && at.z < 0.5) || (sx > 0 && at.z > 0.5) || (sz < 0 && at.x > 0.5) || (sz > 0 && at.x < 0.5)
  return rightHalf ? 'right' : 'left'
}

/** Top or bottom, from the face clicked and, on a side face, the cursor's height. */
function halfOf ({ face, at }) {
  if (face === 'down') return 'top'
  if (face === 'up') return 'bottom'
  return at.y > 0.5 ? 'top' : 'bottom'
}

/**
 * What `click` places for the block `name` into an empty cell: {name, state} with the
 * properties it sets, or null when it places nothing (a torch under a ceiling). The caller
 * checks what the block needs around it (a door's upper cell free) and a door's neighbours
 * (`sides`, for its hinge).
 */
function placedState (name, props, click, sides) {
  switch (ruleOf(name)) {
    case 'door':
      return { name, state: { facing: click.facing, half: 'lower', hinge: hingeOf(click.facing, click.at, sides), open: 'false' } }
    case 'trapdoor':
      return AXIS_OF[click.face] === 'y'
        ? { name, state: { facing: OPPOSITE[click.facing], half: halfOf(click), open: 'false' } }
        : { name, state: { facing: click.face, half: halfOf(click), open: 'false' } }
    case 'slab':
      return { name, state: { type: halfOf(click) } }
    case 'torch':
      if (click.face === 'up') return { name, state: {} }
      if (click.face === 'down') return null
      return { name: name.replace(/torch$/, 'wall_torch'), state: { facing: click.face } }
  }
  const generic = { facing: click.facing, half: halfOf(click), axis: AXIS_OF[click.face] }
  return { name, state: Object.fromEntries(Object.entries(generic).filter(([k]) => k in props)) }
}

/**
 * Whether clicking `face` of a slab already in the cell, of type `type`, at height `at.y`
 * (relative to its cell) makes it a double slab: the top of a bottom slab, the underside of a
 * top one (vanilla's SlabBlock.canBeReplaced).
 */
function doublesSlab (type, face, at) {
  if (type === 'bottom') return face === 'up' || (AXIS_OF[face] !== 'y' && at.y > 0.5)
  if (type === 'top') return face === 'down' || (AXIS_OF[face] !== 'y' && at.y <= 0.5)
  return false
}

/** Whether a block (prismarine-block) is a full cube, as vanilla's isCollisionShapeFullBlock. */
function fullCube (block) {
  const s = block?.shapes
  return s?.length === 1 && s[0].join(',') === '0,0,0,1,1,1'
}

module.exports = {
  FACES, FACE_OF_DIRECTION, OPPOSITE, AXIS_OF, ruleOf, itemOf, placerFacing, facingNeeded,
  hingeNeighbours, hingeOf, placedState, doublesSlab, fullCube
}
