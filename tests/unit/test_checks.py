"""Goal checks: parsing with one-line errors, the YAML form back, describe, transforms, and the
verdict's wording from goal.js's findings (the world itself: tests/integration/test_checks_world.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.bridge import BotDisconnected
from agent.checks import Check, Standing, Verdict, evaluate, load_check, parse_check, start_the_way
from agent.errors import ConfigError
from agent.mc.transform import Transform

EVERY_PREDICATE: list[tuple[dict[str, Any], str]] = [
    ({"sky_visible": True}, "sky_visible"),
    ({"feet_y_at_least": 5}, "feet_y_at_least 5"),
    ({"outside": {"from": [1, 6, 9], "to": [-1, 5, 0]}}, "outside x -1..1 y 5..6 z 0..9"),
    ({"within": {"x": 0.5, "y": 5, "z": 12.5, "distance": 2}}, "within 2 of (0.5, 5, 12.5)"),
    ({"standing_on_ground": True}, "standing_on_ground"),
    ({"has_item": {"name": "cobblestone", "count": 3}}, "has_item cobblestone 3"),
    ({"has_item": {"name": "dirt"}}, "has_item dirt 1"),
    ({"block_at": {"at": [1, 5, 3], "block": "stone"}}, "block_at (1, 5, 3) stone"),
    ({"near_block": {"block": "gold_block", "distance": 3}}, "near_block gold_block 3"),
    ({"near_block": {"block": "gold_block"}}, "near_block gold_block 2"),
    ({"blueprint": {"anchor": [2, 5, 0], "blocks": [{"at": [0, 0, 0], "block": "stone"}, {"at": [0, 1, 0], "block": "stone"}]}},
     "blueprint of 2 cells at (2, 5, 0)"),
    ({"container_has": {"at": [3, 5, 1], "name": "oak_log", "count": 5}}, "container_has oak_log 5 at (3, 5, 1)"),
    ({"container_has": {"name": "bread"}}, "container_has bread 1"),
    ({"near_player": {"name": "alex"}}, "near_player alex 3"),
    ({"shelter": True}, "shelter"),
    ({"shelter": {"at": [2, 5, 2]}}, "shelter at (2, 5, 2)"),
    ({"avoided": "lava"}, "avoided lava"),
    ({"avoided": ["lava", "fire"]}, "avoided lava and fire"),
    ({"all": [{"sky_visible": True}, {"feet_y_at_least": 5}]}, "all(sky_visible, feet_y_at_least 5)"),
    ({"any": [{"standing_on_ground": True}]}, "any(standing_on_ground)"),
    ({"not": {"any": [{"sky_visible": True}, {"feet_y_at_least": 2.5}]}}, "not(any(sky_visible, feet_y_at_least 2.5))"),
]


@pytest.mark.parametrize(("data", "text"), EVERY_PREDICATE)
def test_every_predicate_parses_describes_and_round_trips(data: dict[str, Any], text: str) -> None:
    check = parse_check(data, "success")
    assert check.describe() == text
    assert parse_check(check.as_data(), "again") == check


def test_as_data_is_the_yaml_form_with_defaults_filled_in() -> None:
    assert parse_check({"not": {"has_item": {"name": "dirt"}}}, "c").as_data() == {"not": {"has_item": {"name": "dirt", "count": 1}}}
    assert parse_check({"outside": {"from": [0, 1, 2], "to": [3, 4, 5]}}, "c").as_data() == {
        "outside": {"from": [0, 1, 2], "to": [3, 4, 5]}
    }
    assert parse_check({"avoided": "lava"}, "c").as_data() == {"avoided": ["lava"]}


BAD: list[tuple[Any, str]] = [
    ({"sky_visable": True}, "success: unknown predicate 'sky_visable' (accepted: all, any, not, sky_visible, feet_y_at_least,"),
    ({"all": [{"sky_visible": True}, {"within": {"x": 0, "y": 5, "z": 0}}]}, "success.all[1].within: missing key 'distance'"),
    ({"within": {"x": 0, "y": 5, "z": 0, "distance": 1, "radius": 2}}, "success.within: unknown key 'radius' (accepted: x, y, z, distance)"),
    ({"within": {"x": 0, "y": 5, "z": 0, "distance": 0}}, "success.within.distance: Input should be greater than 0"),
    ("sky_visible", "success: a check is a mapping with exactly one key, its predicate (all, any,"),
    ({"sky_visible": True, "standing_on_ground": True}, "got 2 keys (sky_visible, standing_on_ground)"),
    ({}, "got 0 keys"),
    ({"sky_visible": False}, "success.sky_visible: only `true` is accepted, got False (for the opposite write `not: {sky_visible: true}`)"),
    ({"standing_on_ground": 1}, "success.standing_on_ground: only `true` is accepted, got 1"),
    ({"feet_y_at_least": "5"}, "success.feet_y_at_least: Input should be a valid number (got '5')"),
    ({"feet_y_at_least": True}, "success.feet_y_at_least: Input should be a valid number (got True)"),
    ({"outside": {"from": [0, 5], "to": [1, 5, 1]}}, "success.outside.from: expected [x, y, z] (got [0, 5])"),
    ({"outside": {"from": [0, 5, 0], "to": [1, 5, 1.5]}}, "success.outside.to[2]: Input should be a valid integer"),
    ({"outside": [0, 5, 0]}, "success.outside: expected a mapping with keys from, to (got [0, 5, 0])"),
    ({"has_item": {"name": "Dirt"}}, "success.has_item.name: String should match pattern"),
    ({"has_item": {"name": "dirt", "count": 0}}, "success.has_item.count: Input should be greater than or equal to 1"),
    ({"block_at": {"at": [0, 5, 0]}}, "success.block_at: missing key 'block'"),
    ({"blueprint": {"anchor": [0, 5, 0], "blocks": []}}, "success.blueprint.blocks: List should have at least 1 item"),
    ({"near_block": {"block": "gold_block", "distance": 17}}, "success.near_block.distance: Input should be less than or equal to 16"),
    ({"near_block": {"block": "gold_block", "at": [0, 5, 0]}}, "success.near_block: unknown key 'at' (accepted: block, distance)"),
    ({"container_has": {"at": [3, 5], "name": "dirt"}}, "success.container_has.at: expected [x, y, z] (got [3, 5])"),
    ({"container_has": {"name": "dirt", "count": 0}}, "success.container_has.count: Input should be greater than or equal to 1"),
    ({"avoided": "Lava"}, "success.avoided[0]: String should match pattern"),
    ({"avoided": []}, "success.avoided: Value should have at least 1 item"),
    ({"avoided": True}, "success.avoided: expected a block name such as lava, or a list of them (got True)"),
    ({"shelter": False}, "success.shelter: expected true (around the feet) or {at: [x, y, z]} (around that cell) (got False)"),
    ({"shelter": {"at": [2, 5]}}, "success.shelter: expected true (around the feet) or {at: [x, y, z]} (around that cell) (got {'at': [2, 5]})"),
    ({"shelter": {"from": [2, 5, 2]}}, "success.shelter: expected true (around the feet) or {at: [x, y, z]}"),
    ({"any": []}, "success.any: expected a non-empty list of checks (got [])"),
    ({"all": {"sky_visible": True}}, "success.all: expected a non-empty list of checks"),
    ({"not": [{"sky_visible": True}]}, "success.not: a check is a mapping with exactly one key"),
    ({"not": {"all": [{"any": [{"nope": 1}]}]}}, "success.not.all[0].any[0]: unknown predicate 'nope'"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
def test_bad_checks_fail_in_one_line_naming_the_key(data: Any, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_check(data, "success")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_load_check_takes_inline_yaml_or_json() -> None:
    assert load_check("sky_visible: true").describe() == "sky_visible"
    assert load_check("{feet_y_at_least: 8}").describe() == "feet_y_at_least 8"
    assert load_check('{"not": {"standing_on_ground": true}}').describe() == "not(standing_on_ground)"


def test_load_check_takes_a_file(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text("all:\n  - sky_visible: true\n  - feet_y_at_least: 5\n")
    (tmp_path / "c.json").write_text('{"has_item": {"name": "dirt", "count": 2}}')
    assert load_check(str(tmp_path / "c.yaml")).describe() == "all(sky_visible, feet_y_at_least 5)"
    assert load_check(str(tmp_path / "c.json")).describe() == "has_item dirt 2"
    (tmp_path / "bad.yaml").write_text("within: {x: 1}\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: check.within: missing key 'y'"):
        load_check(str(tmp_path / "bad.yaml"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{sky_visible: true", r"^check: invalid YAML/JSON \(.*\) in '\{sky_visible: true'$"),
        ("sky_visible", r"^check: a check is a mapping with exactly one key"),
        ("sky_visible: yes please", r"^check.sky_visible: only `true` is accepted, got 'yes please'"),
        ("missing.yaml", r"^check file missing.yaml does not exist$"),
    ],
)
def test_load_check_errors_are_one_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_check(text)


# Quarter turn clockwise about (0.5, 0.5): a cell's offset (dx, dz) from the pivot becomes (-dz, dx).
QUARTER = Transform(quarter_turns=1)


def test_transform_moves_points_cells_and_boxes_and_keeps_heights() -> None:
    within = parse_check({"within": {"x": 0.5, "y": 5, "z": 12.5, "distance": 2}}, "c").transformed(QUARTER)
    assert within.as_data()["within"] == {"x": -11.5, "y": 5.0, "z": 0.5, "distance": 2.0}  # 12 south -> 12 west
    block = parse_check({"block_at": {"at": [1, 5, 3], "block": "stone"}}, "c").transformed(QUARTER)
    assert block.as_data()["block_at"]["at"] == [-3, 5, 1]  # 1 east, 3 south -> 3 west, 1 south
    box = parse_check({"outside": {"from": [-1, 5, 0], "to": [1, 6, 9]}}, "c").transformed(QUARTER)
    assert box.describe() == "outside x -9..0 y 5..6 z -1..1"
    mirrored = parse_check({"block_at": {"at": [3, 5, 0], "block": "dirt"}}, "c").transformed(Transform(mirror=True))
    assert mirrored.as_data()["block_at"]["at"] == [-3, 5, 0]


def test_a_turned_blueprint_turns_every_cell_with_its_anchor() -> None:
    wall = {"anchor": [1, 5, 3], "blocks": [{"at": [0, 0, 0], "block": "stone"}, {"at": [1, 0, 0], "block": "stone"},
                                          {"at": [1, 1, 0], "block": "dirt"}]}
    turned = parse_check({"blueprint": wall}, "c").transformed(QUARTER).blueprint
    block = parse_check({"block_at": {"at": [2, 6, 3], "block": "dirt"}}, "c").transformed(QUARTER).block_at
    assert turned.anchor == (-3, 5, 1)  # as block_at moves the same cell
    assert [(cell, name) for cell, name in turned.cells()] == [((-3, 5, 1), "stone"), ((-3, 5, 2), "stone"),
                                                               ((-3, 6, 2), "dirt")]
    assert tuple(block.at) == (-3, 6, 2)


def test_transform_recurses_into_combinators_and_leaves_the_rest() -> None:
    check = parse_check(
        {"all": [{"not": {"block_at": {"at": [2, 5, 0], "block": "air"}}}, {"any": [{"feet_y_at_least": 5}, {"has_item": {"name": "dirt"}}]}]},
        "c",
    )
    turned = check.transformed(Transform(quarter_turns=2))
    assert turned.as_data()["all"][0] == {"not": {"block_at": {"at": [-2, 5, 0], "block": "air"}}}
    assert turned.as_data()["all"][1] == check.as_data()["all"][1]
    for flag in ({"sky_visible": True}, {"standing_on_ground": True}, {"feet_y_at_least": 3}, {"shelter": True}):
        assert parse_check(flag, "c").transformed(QUARTER).as_data() == flag
    shelter = parse_check({"shelter": {"at": [1, 5, 3]}}, "c").transformed(QUARTER)
    assert shelter.as_data() == {"shelter": {"at": [-3, 5, 1]}}  # the cell moves as block_at's does


@pytest.mark.parametrize(("data", "_"), EVERY_PREDICATE)
def test_seed_0_transform_is_the_identity(data: dict[str, Any], _: str) -> None:
    check = parse_check(data, "c")
    assert check.transformed(Transform.for_seed(0, 7.3, -2.2)) == check


class FakeBot:
    """Answers checkGoal with goal.js's findings as given, or fails like a bot that left."""

    def __init__(self, finding: dict[str, Any] | None):
        self.finding, self.sent = finding, None

    def call(self, action: str, args: dict[str, Any]) -> Any:
        if self.finding is None:
            raise BotDisconnected("bot is disconnected: kicked: bye")
        self.sent = (action, args)
        return self.finding


def _verdict(data: dict[str, Any], finding: dict[str, Any]) -> Verdict:
    check: Check = parse_check(data, "c")
    bot = FakeBot(finding)
    verdict = evaluate(bot, check)  # type: ignore[arg-type]
    assert bot.sent == ("checkGoal", {"check": check.as_data()})
    return verdict


def test_a_predicate_verdict_says_what_the_world_says() -> None:
    v = _verdict({"feet_y_at_least": 5}, {"holds": False, "says": "the feet are at y=2.00"})
    assert v == Verdict(holds=False, detail="feet_y_at_least 5 is false: the feet are at y=2.00")
    v = _verdict({"sky_visible": True}, {"holds": True, "says": "nothing opaque above the head"})
    assert v == Verdict(holds=True, detail="sky_visible holds: nothing opaque above the head")


def test_combinator_verdicts_name_the_parts_that_decided() -> None:
    pit = {"all": [{"feet_y_at_least": 5}, {"standing_on_ground": True}]}
    low = {"holds": False, "parts": [{"holds": False, "says": "the feet are at y=2.00"}, {"holds": True, "says": "on"}]}
    assert _verdict(pit, low).detail == "not all hold: feet_y_at_least 5 is false: the feet are at y=2.00"
    either = {"any": [{"sky_visible": True}, {"not": {"standing_on_ground": True}}]}
    none = {"holds": False, "parts": [{"holds": False, "says": "stone at y=7"}, {"holds": False, "parts": [{"holds": True, "says": "on"}]}]}
    assert _verdict(either, none).detail == (
        "none holds: sky_visible is false: stone at y=7; (not(standing_on_ground) is false: standing_on_ground holds: on)"
    )
    one = {"holds": True, "parts": [{"holds": True, "says": "clear"}, {"holds": False, "parts": [{"holds": True, "says": "on"}]}]}
    assert _verdict(either, one).detail == "sky_visible holds: clear"


def test_a_check_is_lost_for_good_only_when_an_avoided_block_decides_it() -> None:
    burned, clear = {"holds": False, "says": "was in lava at (0, 4, 3)"}, {"holds": True, "says": "not in lava"}
    roofed, open_ = {"holds": False, "says": "stone at y=7"}, {"holds": True, "says": "nothing opaque"}
    avoided, sky = {"avoided": "lava"}, {"sky_visible": True}
    assert _verdict(avoided, burned).lost and not _verdict(avoided, clear).lost
    assert _verdict({"all": [sky, avoided]}, {"holds": False, "parts": [open_, burned]}).lost
    assert not _verdict({"all": [sky, avoided]}, {"holds": False, "parts": [roofed, clear]}).lost
    assert not _verdict({"any": [sky, avoided]}, {"holds": False, "parts": [roofed, burned]}).lost  # the sky may yet open
    assert _verdict({"any": [avoided, {"avoided": "fire"}]}, {"holds": False, "parts": [burned, burned]}).lost
    assert not _verdict({"not": avoided}, {"holds": False, "parts": [clear]}).lost  # entering it later would do


def test_a_check_that_cannot_be_made_never_holds() -> None:
    verdict = evaluate(FakeBot(None), parse_check({"sky_visible": True}, "c"))  # type: ignore[arg-type]
    assert verdict == Verdict(holds=False, detail="cannot check: bot is disconnected: kicked: bye")


def test_a_run_starts_its_way_and_a_lost_bot_does_not_stop_it() -> None:
    bot = FakeBot({"forgotten": True})
    start_the_way(bot)  # type: ignore[arg-type]
    assert bot.sent == ("forgetContacts", {})
    start_the_way(FakeBot(None))  # type: ignore[arg-type] - the run's rejoin deals with a lost bot


def _at(check: dict, **cell) -> bool | None:
    return parse_check(check, "check").at_cell(Standing(**{"x": 0, "y": 5, "z": 0, "sky": False, **cell}))


def test_at_cell_predicts_the_predicates_that_depend_on_where_the_bot_stands() -> None:
    assert _at({"sky_visible": True}, sky=True) is True
    assert _at({"sky_visible": True}) is False
    assert _at({"feet_y_at_least": 5}) is True and _at({"feet_y_at_least": 6}) is False
    area = {"from": [-3, 4, -3], "to": [3, 7, 3]}
    assert _at({"outside": area}) is False and _at({"outside": area}, x=4) is True
    assert _at({"within": {"x": 0.5, "y": 5, "z": 3.5, "distance": 2}}) is False
    assert _at({"within": {"x": 0.5, "y": 5, "z": 3.5, "distance": 2}}, z=2) is True
    assert _at({"standing_on_ground": True}) is True
    # the way there decides `avoided`, not the place: the search aims by the rest of the check
    assert _at({"all": [{"sky_visible": True}, {"avoided": "lava"}]}, sky=True) is True
    assert _at({"all": [{"sky_visible": True}, {"avoided": "lava"}]}) is False


def test_at_cell_leaves_undecided_what_standing_somewhere_cannot_decide() -> None:
    item = {"has_item": {"name": "dirt"}}
    assert _at(item) is None
    assert _at({"all": [{"feet_y_at_least": 5}, item]}) is None
    assert _at({"all": [{"feet_y_at_least": 9}, item]}) is False
    assert _at({"any": [{"feet_y_at_least": 9}, item]}) is None
    assert _at({"any": [{"feet_y_at_least": 5}, item]}) is True
    assert _at({"not": item}) is None and _at({"not": {"sky_visible": True}}) is True
