"""mc-dig on the real server: the block is gone, as a fresh look confirms."""

from __future__ import annotations

from support.world_body import Body


def test_dig_removes_the_footing_ahead_confirmed_by_a_fresh_look(flat: Body) -> None:
    flat.teleport(-2.5, 5, 0.5, "south")  # a spot of its own on the shared field
    assert flat.ok("mc-observe-blocks")["footing_ahead"] == "grass_block"
    dug = flat.ok("mc-dig", forward=1, up=-1)
    assert dug["block"] == "grass_block" and dug["gone"] and dug["now"] == "air"
    after = flat.ok("mc-observe-blocks")
    assert after["footing_ahead"] == "air" and after["drop_ahead"] == 1
