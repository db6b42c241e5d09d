"""The `shelter` check judged on the real server: the house template (server-config/structures/
house.yaml) built by a scenario, whole and with a part left out, each judged from a cell inside
it, and from the feet of a bot standing in the whole one."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from agent.blueprint.templates import Order
from agent.bridge import BotConnection
from agent.checks import Verdict, evaluate, parse_check
from agent.checks.model import All, Blueprint, Shelter
from agent.server import Scenario
from support.world_body import standing_in

SPACING = 7  # blocks between the huts' west walls: each 5 wide, two apart
Cells = list[tuple[tuple[int, int, int], str]]


def house_at(x0: int) -> tuple[Cells, tuple[int, int, int]]:
    """The default house's cells with its west wall at x0 and its door (front) on z=0, the
    floor at y=5 on the superflat grass; and the cell inside it the shelter check judges from."""
    check = Order(template="house").check(feet=(x0 + 2, 5, -2), facing="south")
    assert isinstance(check, All)
    plan, shelter = check.all
    assert isinstance(plan, Blueprint) and isinstance(shelter, Shelter) and shelter.shelter is not True
    return plan.blueprint.cells(), shelter.shelter.at


def whole(cells: Cells) -> Cells:
    return cells


def roofless(cells: Cells) -> Cells:
    return [(c, b) for c, b in cells if c[1] != 7]


def doorway(cells: Cells) -> Cells:  # the door taken out: a 1x2 hole in the front wall
    return [(c, b) for c, b in cells if "door" not in b]


def walled_up(cells: Cells) -> Cells:  # planks where the door was: closed in, no way in
    return [(c, "oak_planks" if "door" in b else b) for c, b in cells]


def holed(cells: Cells) -> Cells:  # one block out of the back wall, at the feet's height
    back = max(c[2] for c, _ in cells)
    middle = min(c[0] for c, _ in cells) + 2
    return [(c, b) for c, b in cells if c != (middle, 5, back)]


def door_open(cells: Cells) -> Cells:
    return [(c, b.replace("]", ",open=true]") if "door" in b else b) for c, b in cells]


HUTS: list[Callable[[Cells], Cells]] = [whole, roofless, doorway, walled_up, holed, door_open]
EXPECTED = {
    "whole": (True, "closed in and roofed (18 open cells), a door at (2, 5, 0)"),
    "roofless": (False, "open to the sky at (9, 5, 2)"),
    "doorway": (False, "escapes to (16, 5, -1), under the open sky"),
    "walled_up": (False, "closed in and roofed (18 open cells), but no door"),
    "holed": (False, "escapes to (30, 5, 5), under the open sky"),
    "door_open": (False, "escapes to (37, 5, -1), under the open sky, through the open door at (37, 5, 0)"),
}

SCENARIO = Scenario.model_validate({
    "name": "huts",
    "description": "six huts in a row on the superflat grass, the house template whole and with a part out; "
                   "the bot stands in the whole one",
    "spawn": {"x": 2.5, "y": 5, "z": 2.5, "facing": "south"},
    "blocks": [{"block": b, "at": c} for i, variant in enumerate(HUTS) for c, b in variant(house_at(i * SPACING)[0])],
})


@pytest.fixture(scope="module")
def inside() -> Iterator[BotConnection]:
    yield from standing_in(SCENARIO, "sheltered")


@pytest.mark.parametrize("index", range(len(HUTS)), ids=[v.__name__ for v in HUTS])
def test_a_hut_is_a_shelter_only_closed_in_roofed_and_with_a_closed_door(inside: BotConnection, index: int) -> None:
    _, cell = house_at(index * SPACING)
    check = parse_check({"shelter": {"at": list(cell)}}, "check")
    holds, says = EXPECTED[HUTS[index].__name__]
    assert evaluate(inside, check) == Verdict(holds=holds, detail=f"{check.describe()} {'holds' if holds else 'is false'}: {says}")


def test_the_bot_standing_in_the_whole_hut_is_sheltered_and_the_blueprint_of_it_holds(inside: BotConnection) -> None:
    assert evaluate(inside, parse_check({"shelter": True}, "check")) == Verdict(
        holds=True, detail="shelter holds: closed in and roofed (18 open cells), a door at (2, 5, 0)")
    house = Order(template="house").check(feet=(2, 5, -2), facing="south")
    assert evaluate(inside, house).holds  # the doors' halves and facing as the template asks


def test_a_cell_in_a_wall_or_out_in_the_open_is_no_shelter(inside: BotConnection) -> None:
    wall = evaluate(inside, parse_check({"shelter": {"at": [0, 5, 2]}}, "check"))
    assert wall == Verdict(holds=False, detail="shelter at (0, 5, 2) is false: (0, 5, 2) is not open: oak_planks there")
    field = evaluate(inside, parse_check({"shelter": {"at": [2, 5, -6]}}, "check"))
    assert field == Verdict(holds=False, detail="shelter at (2, 5, -6) is false: open to the sky at (2, 5, -6)")
