"""mc-look on the real server: snapping to the nearest cardinal, alone or after a target."""

from __future__ import annotations

import pytest

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
