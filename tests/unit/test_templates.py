"""Structure templates (agent/blueprint/templates.py, server-config/structures/): every shipped one
builds at its defaults and bounds; the house fits its scenario's inventory; placing turns cells
and states with the way the bot looks; bad templates and values fail in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.blueprint.templates import Order, StructureError, Template, load_template, templates
from agent.checks.model import MAX_BLUEPRINT_CELLS, All, Blueprint, Shelter
from agent.errors import ConfigError
from agent.mc.blockstate import BlockState
from agent.server import load_scenario


@pytest.mark.parametrize("name", sorted(templates()))
def test_every_template_builds_at_its_defaults_and_at_each_bound(name: str) -> None:
    template = templates()[name]
    numbers = {k: p for k, p in template.params.items() if not p.is_block}
    for bound in ("min", "max"):
        values = template.values({k: getattr(p, bound) for k, p in numbers.items()}, name)
        built = template.structure(values, name)
        assert 1 <= len(built.blocks) <= MAX_BLUEPRINT_CELLS
        assert all(0 <= c < s for p in built.blocks for c, s in zip(p.at, built.size))


def test_the_small_house_is_5_by_5_3_high_with_room_inside_and_fits_64_planks_and_a_door() -> None:
    house = templates()["house"]
    built = house.structure(house.values({}, "house"), "house")
    assert built.size == (5, 3, 5)
    assert built.materials() == {"oak_planks": 55, "oak_door": 1}
    assert len(built.air) == 3 * 2 * 3  # inside: 3 x 3, two high
    inventory = {i.name: i.count for i in load_scenario("house-flat").inventory}
    assert all(inventory.get(item, 0) >= n for item, n in built.materials().items())


def test_a_house_placed_ahead_turns_its_door_to_face_the_way_the_bot_looked() -> None:
    for facing, anchor, inside, door in [("south", (-2, 5, 2), (0, 5, 4), (0, 5, 2)),
                                         ("east", (2, 5, -2), (4, 5, 0), (2, 5, 0)),
                                         ("north", (-2, 5, -6), (0, 5, -4), (0, 5, -2)),
                                         ("west", (-6, 5, -2), (-4, 5, 0), (-2, 5, 0))]:
        check = Order(template="house").check(feet=(0, 5, 0), facing=facing)
        assert isinstance(check, All)
        plan, shelter = check.all
        assert isinstance(plan, Blueprint) and isinstance(shelter, Shelter)
        assert plan.blueprint.anchor == anchor and shelter.shelter.at == inside
        cells = dict(plan.blueprint.cells())
        assert cells[door] == f"oak_door[facing={facing},half=lower]"  # its front, in the bot's line, 2 ahead
        assert cells[(door[0], 6, door[2])] == f"oak_door[facing={facing},half=upper]"


def test_a_log_on_its_side_turns_its_axis_with_the_structure(tmp_path: Path) -> None:
    path = tmp_path / "beam.yaml"
    path.write_text("names: [beam]\nparts:\n  - {at: [0, 0, 0], block: 'oak_log[axis=x]'}\n")
    template = load_template(path)
    assert template.structure({}, "beam").blocks[0].block == "oak_log[axis=x]"
    templates.cache_clear()
    try:
        templates()["beam"] = template
        east = Order(template="beam").check(feet=(0, 5, 0), facing="east")
        assert isinstance(east, Blueprint) and east.blueprint.blocks[0].block == "oak_log[axis=z]"
        assert east.blueprint.anchor == (2, 5, 0)
    finally:
        templates.cache_clear()


def test_a_ring_goes_around_the_thing_centred_on_its_cell() -> None:
    ring = Order(template="enclosure", around="chest").check(feet=(9, 5, 9), facing="north", thing=(3, 5, 3))
    assert isinstance(ring, Blueprint)
    cells = {c for c, _ in ring.blueprint.cells()}
    assert ring.blueprint.anchor == (1, 5, 1) and len(cells) == 16 * 2
    assert (3, 5, 3) not in cells and (1, 5, 3) in cells and (5, 6, 5) in cells


def test_numbers_are_whole_number_expressions_of_the_parameters(tmp_path: Path) -> None:
    path = tmp_path / "steps.yaml"
    path.write_text("names: [steps]\nparams:\n  n: {default: 7, min: 1, max: 9}\n"
                    "parts:\n  - {box: [[0, 0, 0], [(n - 1) / 2 * 2, 0, 2 * (n - 5)]], block: stone}\n")
    built = load_template(path).structure({"n": 7}, "steps")
    assert built.size == (7, 1, 5)


@pytest.mark.parametrize(("text", "message"), [
    ("names: [x]\nparts: []\n", "parts: List should have at least 1 item"),
    ("names: [x]\nparts:\n  - {at: [0, 0, 0], box: [[0, 0, 0], [1, 1, 1]], block: stone}\n",
     "a part is exactly one of box, sides or at"),
    ("names: [x]\nparams:\n  n: {default: 9, min: 1, max: 4}\nparts:\n  - {at: [0, 0, n], block: stone}\n",
     "a number needs min <= default <= max"),
    ("names: [x]\nparts:\n  - {at: [0, 0, size], block: stone}\n", "'size': no parameter 'size' (there are none)"),
    ("names: [x]\nparts:\n  - {at: [0, 0, 2 ** 2], block: stone}\n", "'2 ** 2': an expression has '*' where a number"),
    ("names: [x]\nparts:\n  - {at: [1, 0, 0], block: stone}\n", "its lowest north-west corner is (1, 0, 0)"),
    ("names: [x]\nparts:\n  - {at: [0, 0, 0], block: 'stone[facing'}\n", "is not a block"),
])
def test_a_bad_template_fails_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text)
    with pytest.raises((ConfigError, ValueError)) as caught:
        load_template(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_value_out_of_bounds_or_unknown_is_a_structure_error_naming_what_is_accepted() -> None:
    with pytest.raises(StructureError, match=r"^tower: height is 1 to 32, not 40$"):
        Order(template="tower", values={"height": 40}).check(feet=(0, 5, 0), facing="south")
    with pytest.raises(StructureError, match=r"^tower takes height, width, material, not 'length'$"):
        Order(template="tower", values={"length": 4}).check(feet=(0, 5, 0), facing="south")


def test_shipped_templates_name_blocks_the_game_has_and_no_name_twice_for_the_same_placing() -> None:
    from agent.mc.gamedata import block_names
    for name, template in templates().items():
        assert isinstance(template, Template)
        for key, param in template.params.items():
            if param.is_block:
                assert BlockState.parse(str(param.default)).name in block_names(), (name, key)
    for placed in ("ahead", "around"):
        words = [w for t in templates().values() if t.placed == placed for w in t.names]
        assert len(words) == len(set(words)), placed
