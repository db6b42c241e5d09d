'use strict'
// The generator's blocks as state ids for the server's version: names that moved between
// versions (grass became short_grass in 1.20.3; deepslate and copper came in 1.17) resolve
// to what the version has, or to null where it has none (the feature is left out).

const RENAMED = { short_grass: ['short_grass', 'grass'] }

const NAMES = ['air', 'stone', 'deepslate', 'bedrock', 'dirt', 'grass_block', 'sand', 'sandstone', 'gravel',
  'water', 'lava', 'short_grass', 'dead_bush',
  'oak_log', 'oak_leaves', 'birch_log', 'birch_leaves', 'spruce_log', 'spruce_leaves',
  'coal_ore', 'iron_ore', 'copper_ore', 'gold_ore', 'redstone_ore', 'lapis_ore', 'diamond_ore',
  'deepslate_coal_ore', 'deepslate_iron_ore', 'deepslate_copper_ore', 'deepslate_gold_ore',
  'deepslate_redstone_ore', 'deepslate_lapis_ore', 'deepslate_diamond_ore']

/** { name: stateId | null } for every block the generator places, in `registry`'s version. */
function blockStates (registry) {
  const states = {}
  for (const name of NAMES) {
    const found = (RENAMED[name] ?? [name]).map((n) => registry.blocksByName[n]).find(Boolean)
    states[name] = found ? found.defaultState ?? found.minStateId : null
  }
  return states
}

module.exports = { blockStates }
