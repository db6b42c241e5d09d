"""The embedded server's world saving (bridge/lib/flying-squid-fixes.js `savesEveryChange`), run
in Node on prismarine-world with a storage that writes slowly: a chunk changed while a round of
saves is writing it is written again, not dropped from the queue. A clean-clone run's restart
test read back grass where it had set gold: the block was set while the chunks around the
joining player were being saved, and that round's end cleared the queue."""

from __future__ import annotations

import json
import subprocess

from agent.node import node_binary
from agent.paths import BRIDGE_DIR

# Writes record the state at (3, 4, 3) of the column as it is written; each takes 100 ms.
SCRIPT = """
const World = require('prismarine-world')()
require('./lib/flying-squid-fixes').savesEveryChange(World)
const Chunk = require('prismarine-chunk')('1.16.5')
const { Vec3 } = require('vec3')
const at = new Vec3(3, 4, 3)
const written = []
const storage = {
  load: async () => null,
  save: async (x, z, column) => { written.push(column.getBlockStateId(at)); await new Promise((r) => setTimeout(r, 100)) }
}
;(async () => {
  const world = new World(() => new Chunk(), storage, 0)  // no saving interval: rounds by hand
  await world.getColumn(0, 0)  // generated, so queued to be saved
  const round = world.saveNow()
  await world.setBlockStateId(at, 1)  // while the round writes the column as it was
  await round
  await world.waitSaving()  // as the server does when it stops
  console.log(JSON.stringify(written))
})()
"""


def test_a_chunk_changed_while_a_round_of_saves_writes_it_is_written_again() -> None:
    done = subprocess.run([node_binary(), "-e", SCRIPT], capture_output=True, text=True, cwd=BRIDGE_DIR,
                          check=True, timeout=30)
    assert json.loads(done.stdout) == [0, 1]  # the first round wrote air; the change, not lost, after
