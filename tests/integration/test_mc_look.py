"""mc-look on the real server: snapping to the nearest cardinal, alone or after a target."""

from __future__ import annotations

import pytest

from agent.bridge import BridgeError
from support.world_body import Body


def test_snap_lands_on_a_cardinal(flat: Body) -> None:
    flat.ok("mc-look", yaw=100, pitch=10)
    snapped = flat.ok("mc-look", snap=True)
    # mineflayer rounds its angles slightly (set 20, read 19.95): within a tenth of a degree
    assert snapped["facing"] == "west" and snapped["yaw_deg"] == pytest.approx(90, abs=0.1)
    assert snapped["pitch_deg"] == pytest.approx(10, abs=0.1)
    # snap after a target rounds that target; two targets conflict
    assert flat.ok("mc-look", yaw=-100, snap=True)["facing"] == "east"
    both = flat.call("mc-look", facing="east", yaw=3)
    assert not both.ok and both.code == "bad_args" and "only one of" in both.reason


def test_a_yaw_out_of_range_changes_nothing_and_the_bot_goes_on(flat: Body) -> None:
    """A yaw of 1e308 once turned into NaN in the bot, and every later look and status failed."""
    flat.ok("mc-look", yaw=45)
    for bad in ({"yaw": 1e308}, {"yaw": float("nan")}, {"x": float("inf"), "y": 5, "z": 0}, {"pitch": 1e9}):
        refused = flat.call("mc-look", **bad)
        assert not refused.ok and refused.code == "bad_args", (bad, refused)
    with pytest.raises(BridgeError) as raised:  # NaN is refused before the bridge, for a caller that skips the tool
        flat.bot.look(float("nan"), 0)
    assert raised.value.code == "bad_args" and "NaN" in str(raised.value)
    assert flat.ok("mc-status")["yaw_deg"] == pytest.approx(45, abs=0.1)
    assert flat.ok("mc-look", yaw=-90)["facing"] == "east"
