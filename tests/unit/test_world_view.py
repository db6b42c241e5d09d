"""The demo's text views of a scanned box."""

from __future__ import annotations

from agent.bridge.models import BlockBox
from agent.mc.geometry import Vec3
from agent.world_view import block_counts, top_down


def box_with_ground() -> BlockBox:
    # radius 1, half_height 1: three 3x3 layers; ground below, one stone to the north-west at feet level
    ground = [1] * 9
    feet = [0] * 9
    feet[0] = 2  # dz = -1 (north), dx = -1 (west)
    head = [0] * 9
    return BlockBox(origin=Vec3(x=0, y=5, z=0), radius=1, half_height=1, palette=["air", "grass_block", "stone"], cells=ground + feet + head)


def test_counts_commonest_first() -> None:
    assert block_counts(box_with_ground()) == [("air", 17), ("grass_block", 9), ("stone", 1)]


def test_top_down_puts_north_up_west_left_and_the_bot_in_the_middle() -> None:
    assert top_down(box_with_ground(), dy=0) == ["#..", ".@.", "..."]
    assert top_down(box_with_ground(), dy=-1) == ['"""', '"@"', '"""']
