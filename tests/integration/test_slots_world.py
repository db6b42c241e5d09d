"""Slot rules and is-complete on the real server, through world tools: a missing required value
asks, a value outside its enum is refused, an unconfirmed item waits for the inventory to show
it, and a placement that puts no block there is incomplete, as the world reads it back."""

from __future__ import annotations

from support.waiting import wait_for
from support.world_body import Body


def test_a_missing_required_value_asks_and_the_bot_stays(flat: Body) -> None:
    flat.teleport(-6.5, 5, 6.5, "south")
    before = flat.bot.state().position
    asked = flat.call("mc-goto", x=20, y=5)
    assert (asked.code, asked.reason) == ("needs_input", "mc-goto needs a value for 'z'")
    assert flat.bot.state().position == before


def test_a_value_outside_its_enum_is_refused_and_the_bot_does_not_turn(flat: Body) -> None:
    flat.teleport(-6.5, 5, 6.5, "south")
    refused = flat.call("mc-look", facing="up")
    assert refused.code == "bad_args" and 'expected one of "north", "east", "south", "west"' in refused.reason
    assert flat.ok("mc-status")["facing"] == "south"


def test_an_item_is_equipped_once_the_inventory_shows_it(flat: Body) -> None:
    flat.teleport(-6.5, 5, 6.5, "south")
    flat.bot.chat("/give walker oak_planks 1")  # set-up: something to hold
    unconfirmed = flat.call("mc-equip", item="oak_planks")
    assert unconfirmed.code == "needs_input" and 'item="oak_planks" is not confirmed' in unconfirmed.reason
    assert wait_for(lambda: any(i["name"] == "oak_planks" for i in flat.ok("mc-inventory")["items"]))
    held = flat.ok("mc-equip", item="oak_planks")
    assert held["held"]["name"] == "oak_planks"


def test_only_what_can_be_worn_goes_in_an_armour_slot(flat: Body) -> None:
    flat.teleport(-7.5, 5, 8.5, "south")
    flat.bot.chat("/give walker white_wool 1")  # set-up: an item no one wears
    flat.bot.chat("/give walker iron_helmet 1")
    assert wait_for(lambda: {"white_wool", "iron_helmet"} <= {i["name"] for i in flat.ok("mc-inventory")["items"]})
    refused = flat.call("mc-equip", item="white_wool", destination="head")
    assert (refused.status, refused.code) == ("failed", "refused")
    assert "white_wool cannot be worn on the head" in refused.reason
    assert any(i["name"] == "white_wool" for i in flat.ok("mc-inventory")["items"])  # still carried
    worn = flat.ok("mc-equip", item="iron_helmet", destination="head")
    assert worn["equipped"] == "iron_helmet" and all(i["name"] != "iron_helmet" for i in worn["items"])


def test_placing_what_is_no_block_is_incomplete_as_the_world_reads_it(flat: Body) -> None:
    flat.teleport(-9.5, 5, 6.5, "south")
    flat.bot.chat("/give walker stick 1")
    assert wait_for(lambda: any(i["name"] == "stick" for i in flat.ok("mc-inventory")["items"]))
    result = flat.call("mc-place", item="stick", forward=1, up=0)
    assert (result.status, result.code) == ("failed", "incomplete")
    assert result.reason.startswith("incomplete: expected data.placed is false; the tool said: tried to place stick")
    assert result.data["placed"] is False and result.data["now"] == "air"
    assert flat.ok("mc-observe-blocks")["clearance_ahead"]["feet"] is True  # nothing there, as the tool said
