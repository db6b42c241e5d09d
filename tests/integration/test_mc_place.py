"""mc-place on the real server: the block is there, as a fresh look confirms; the bot's own
space is refused."""

from __future__ import annotations

from support.waiting import wait_for
from support.world_body import Body


def test_place_puts_a_block_ahead_confirmed_by_a_fresh_look(flat: Body) -> None:
    flat.teleport(3.5, 5, 0.5, "south")  # a spot of its own on the shared field
    assert flat.ok("mc-observe-blocks")["clearance_ahead"]["feet"] is True
    flat.bot.chat("/give walker dirt 1")  # set-up: something to place
    assert wait_for(lambda: any(i["name"] == "dirt" for i in flat.ok("mc-inventory")["items"]))
    placed = flat.ok("mc-place", item="dirt", forward=1, up=0)
    assert placed["placed"] and placed["now"] == "dirt" and placed["against"] == "grass_block"
    after = flat.ok("mc-observe-blocks")
    assert after["clearance_ahead"]["feet"] is False and after["step_up_ahead"] is True


def test_place_refuses_the_bots_own_space(flat: Body) -> None:
    flat.teleport(0.5, 5, 0.5, "south")
    result = flat.call("mc-place", item="dirt", forward=0, up=0)
    assert not result.ok and result.code == "refused"
    assert "taken" in result.reason or "own space" in result.reason
