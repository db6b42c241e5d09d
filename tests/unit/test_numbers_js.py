"""The bridge checks every number itself (bridge/helpers/errors.js), for a caller that skips the
world tools (a direct BotConnection.look): NaN, infinities and values out of range are bad_args
naming the argument and its range, and the fake bot is never touched. Run in Node, no server."""

from __future__ import annotations

import json
import subprocess

import pytest

from agent.node import node_binary
from agent.paths import BRIDGE_DIR

# Cases arrive as JSON, which has no NaN or infinities: the strings "NaN", "Infinity" and
# "-Infinity" stand for them.
SCRIPT = """
const { Vec3 } = require('vec3')
const { look, hold, wait } = require('./helpers/motion')
const { goto } = require('./helpers/goto')
const { targetBlock } = require('./helpers/target')
const { blockAt } = require('./helpers/scan')

const SPECIAL = { NaN, Infinity, '-Infinity': -Infinity }
const HELPERS = { look, hold, wait, goto, targetBlock, blockAt }

function fakeBot (touched) {
  const touch = (what) => async () => { touched.push(what) }
  return {
    entity: { position: new Vec3(0.5, 5, 0.5), yaw: 0, pitch: 0 },
    look: touch('look'), lookAt: touch('lookAt'), setControlState: touch('control'),
    blockAt: () => { touched.push('blockAt'); return null }
  }
}

async function run ([helper, args]) {
  const touched = []
  try {
    await HELPERS[helper](fakeBot(touched), args)
    return { ok: true, touched }
  } catch (err) {
    return { ok: false, code: err.code ?? 'internal', message: err.message, touched }
  }
}

const cases = JSON.parse(process.argv[1], (key, value) => value in SPECIAL ? SPECIAL[value] : value)
Promise.all(cases.map(run)).then((out) => console.log(JSON.stringify(out)))
"""

BORDER = "-30000000 to 30000000"
REFUSED = [
    ("look", {"yaw_deg": 1e308}, "yaw must be a number from -360 to 360"),
    ("look", {"yaw_deg": "NaN"}, "yaw must be a number from -360 to 360"),
    ("look", {"yaw_deg": -361}, "yaw must be a number from -360 to 360"),
    ("look", {"yaw_deg": "-Infinity"}, "yaw must be a number from -360 to 360"),
    ("look", {"yaw_deg": 90, "pitch_deg": 90.5}, "pitch must be a number from -90 to 90"),
    ("look", {"x": "Infinity", "y": 0, "z": 0}, f"x must be a number from {BORDER}"),
    ("look", {"x": 0, "y": 1e9, "z": 0}, "y must be a number from -2048 to 2048"),
    ("look", {"x": 0, "y": 0, "z": "NaN"}, f"z must be a number from {BORDER}"),
    ("hold", {"controls": ["forward"], "seconds": "Infinity"}, "duration must be a number from 0.05 to 10"),
    ("wait", {"seconds": 1e308}, "seconds must be a number from 0 to 60"),
    ("goto", {"x": 1e308, "y": 0, "z": 0}, f"x must be a number from {BORDER}"),
    ("goto", {"x": 0, "y": 0, "z": 0, "range": 1e308}, "range must be a number from 0 to 16"),
    ("goto", {"x": 0, "y": 0, "z": 0, "timeout_s": "NaN"}, "timeout_s must be a number from 1 to 120"),
    ("targetBlock", {"forward": 1e20}, "forward must be an integer from -64 to 64"),
    ("targetBlock", {"x": 1e20, "y": 0, "z": 0}, f"x must be an integer from {BORDER}"),
    ("targetBlock", {"x": 1, "y": 2}, f"z must be an integer from {BORDER}"),
    ("blockAt", {"x": 0, "y": 4096, "z": 0}, "y must be an integer from -2048 to 2048"),
]
ACCEPTED = [
    ("look", {"yaw_deg": 360, "pitch_deg": -90}, ["look"]),
    ("look", {"x": -30000000, "y": 2048, "z": 12.5}, ["lookAt"]),
    ("blockAt", {"x": 29999999, "y": -2048, "z": 0}, ["blockAt"]),
]


def _run(cases: list[tuple]) -> list[dict]:
    args = json.dumps([[helper, call_args] for helper, call_args, _ in cases])
    done = subprocess.run([node_binary(), "-e", SCRIPT, args], capture_output=True, text=True, cwd=BRIDGE_DIR,
                          check=True, timeout=60)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def refused() -> list[dict]:
    return _run(REFUSED)


@pytest.mark.parametrize("index", range(len(REFUSED)), ids=[f"{h}-{json.dumps(a)}" for h, a, _ in REFUSED])
def test_a_bad_number_is_bad_args_and_touches_nothing(refused: list[dict], index: int) -> None:
    got, message = refused[index], REFUSED[index][2]
    assert (got["ok"], got["code"], got["touched"]) == (False, "bad_args", []), got
    assert got["message"] == message


def test_numbers_at_the_ends_of_their_ranges_are_taken() -> None:
    for got, (_, _, touched) in zip(_run(ACCEPTED), ACCEPTED):
        assert got == {"ok": True, "touched": touched}
