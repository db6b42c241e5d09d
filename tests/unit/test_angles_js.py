"""The one angle conversion (bridge/helpers/angles.js), run in Node: all four headings and back."""

from __future__ import annotations

import json
import math
import subprocess

import pytest

from agent.node import node_binary
from agent.paths import BRIDGE_DIR

SCRIPT = """
const a = require('./helpers/angles')
const out = JSON.parse(process.argv[1]).map(([rad, deg]) => ({
  toDeg: a.yawToDeg(rad), fromDeg: a.yawFromDeg(deg), facing: a.facingOf(deg),
  pitchDeg: a.pitchToDeg(rad), pitchBack: a.pitchFromDeg(a.pitchToDeg(rad))
}))
console.log(JSON.stringify(out))
"""

# Mineflayer yaw (radians, 0 = north, counter-clockwise) -> ours (degrees, 0 = south, 90 = west).
CASES = [
    (0.0, 180.0, "north"),
    (math.pi / 2, 90.0, "west"),
    (math.pi, 0.0, "south"),
    (3 * math.pi / 2, -90.0, "east"),
    (-math.pi / 2, -90.0, "east"),
    (math.pi / 4, 135.0, "north"),  # between north and west: nearest is a tie, either is fine below
]


@pytest.fixture(scope="module")
def converted() -> list[dict]:
    args = json.dumps([[rad, deg] for rad, deg, _ in CASES])
    done = subprocess.run([node_binary(), "-e", SCRIPT, args], capture_output=True, text=True, cwd=BRIDGE_DIR, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("i", range(len(CASES)))
def test_yaw_both_ways(converted: list[dict], i: int) -> None:
    rad, deg, facing = CASES[i]
    got = converted[i]
    assert got["toDeg"] == pytest.approx(deg, abs=1e-6)
    assert math.remainder(got["fromDeg"] - rad, 2 * math.pi) == pytest.approx(0, abs=1e-9)
    if i < 5:
        assert got["facing"] == facing


def test_pitch_sign_flips_and_round_trips(converted: list[dict]) -> None:
    # Mineflayer pitch > 0 looks up; ours > 0 looks down.
    assert converted[1]["pitchDeg"] == pytest.approx(-90.0)
    for (rad, _, _), got in zip(CASES, converted):
        assert got["pitchBack"] == pytest.approx(rad, abs=1e-6)
