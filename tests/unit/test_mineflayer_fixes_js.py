"""One placement in flight per cell (bridge/helpers/mineflayer-fixes.js), run in Node on
Mineflayer's own place_block plugin with a fake connection: a cell clicked twice before the
server's answer to the first (as pathfinder does while towering) sends one click, and a refusal
settles both calls when the answer comes. Without the fix neither call settles on the answer
and both wait out Mineflayer's 5 s: a tower on a busy machine took 10 s a step."""

from __future__ import annotations

import json
import subprocess

from agent.node import node_binary, node_environment
from agent.paths import BRIDGE_DIR

# A fake bot: clicks are counted; the "server" answers a cell's first click 100 ms later with
# the blocks at the clicked cell and the cell across, unchanged (a refusal, as vanilla answers one).
SCRIPT = """
const { EventEmitter } = require('events')
const { Vec3 } = require('vec3')
const placeBlock = require('mineflayer/lib/plugins/place_block')
const { mineflayerFixes } = require('./helpers/mineflayer-fixes')
const fixed = process.argv[1] === 'fixed'
const bot = new EventEmitter()
const air = { type: 0, name: 'air' }
const stone = { type: 1, name: 'stone' }
const answer = (pos, block) => bot.emit(`blockUpdate:${pos}`, block, block)
let clicks = 0
const answered = new Set()
bot.blockAt = (pos) => (pos.y === 4 ? stone : air)
bot._genericPlace = async (ref, face) => {
  clicks++
  const cell = ref.position.plus(face)
  if (answered.has(`${cell}`)) return
  answered.add(`${cell}`)
  setTimeout(() => { answer(ref.position, stone); answer(cell, air) }, 100)
}
placeBlock(bot)
if (fixed) mineflayerFixes(bot)
const ref = { position: new Vec3(2, 4, 2) }
const up = new Vec3(0, 1, 0)
const started = Date.now()
const settled = (p) => p.then(() => 'placed', (err) => err.message.split(':')[0]).then((how) => ({ how, ms: Date.now() - started }))
;(async () => {
  const first = settled(bot.placeBlock(ref, up))
  await new Promise((resolve) => setTimeout(resolve, 20))
  const second = settled(bot._placeBlockWithOptions(ref, up, {}))
  const elsewhere = settled(bot.placeBlock({ position: new Vec3(5, 4, 5) }, up))
  const calls = await Promise.all([first, second, elsewhere])
  console.log(JSON.stringify({ clicks, calls }))
})()
"""


def _run(variant: str) -> dict:
    done = subprocess.run([node_binary(), "-e", SCRIPT, variant], capture_output=True, text=True, cwd=BRIDGE_DIR,
                          check=True, timeout=30, env=node_environment())
    return json.loads(done.stdout)


def test_a_cell_clicked_again_before_its_answer_sends_one_click_and_both_settle_on_the_answer() -> None:
    out = _run("fixed")
    assert out["clicks"] == 2  # one for (2, 5, 2), one for the other cell: a cell of its own is clicked
    assert [c["how"] for c in out["calls"]] == [f"Server refused to place block at {cell}"
                                                for cell in ("(2, 5, 2)", "(2, 5, 2)", "(5, 5, 5)")]
    assert all(c["ms"] < 1000 for c in out["calls"]), out  # on the answer (100 ms), not after 5 s


def test_without_the_fix_both_clicks_wait_out_mineflayers_five_seconds() -> None:
    out = _run("plain")
    assert out["clicks"] == 3
    first, second, elsewhere = out["calls"]
    assert first["ms"] >= 5000 and second["ms"] >= 5000, out  # two in flight: the answer settles neither
    assert elsewhere["ms"] < 1000, out
