"""A block with its state (agent/mc/blockstate.py) and a structure's bill of materials
(agent/blueprint/model.py)."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from agent.blueprint import Structure
from agent.checks.model import Placement
from agent.mc.blockstate import CHOSEN, BlockSpec, BlockState


def test_a_spec_is_read_with_its_namespace_dropped_and_its_properties_sorted() -> None:
    state = BlockState.parse("minecraft:oak_stairs[waterlogged=false,half=top,facing=east,shape=straight]")
    assert state.name == "oak_stairs"
    assert state.spec() == "oak_stairs[facing=east,half=top,shape=straight,waterlogged=false]"
    assert state.chosen() == {"facing": "east", "half": "top"}  # shape and waterlogged come from the neighbours
    assert BlockState.parse("stone").spec() == "stone" and BlockState.parse("stone[]").properties == {}


@pytest.mark.parametrize("bad", ["Stone", "oak_stairs[facing]", "oak_stairs[facing=east", "a b", ""])
def test_a_spec_that_is_not_a_block_is_refused_naming_the_form(bad: str) -> None:
    with pytest.raises(ValueError, match="write a name, or name\\[property=value"):
        BlockState.parse(bad)


def test_a_blockspec_field_normalises_what_it_holds() -> None:
    assert TypeAdapter(BlockSpec).validate_python("minecraft:oak_log[axis=x]") == "oak_log[axis=x]"
    with pytest.raises(ValidationError):
        Placement(at=(0, 0, 0), block="oak_log[axis]")


def test_the_chosen_properties_are_the_ones_a_placement_or_a_use_decides() -> None:
    assert {"facing", "half", "axis", "hinge", "open", "type"} <= set(CHOSEN)
    assert not {"shape", "waterlogged", "north", "distance", "persistent"} & set(CHOSEN)


def test_the_bill_of_materials_counts_items_not_cells() -> None:
    cells = ["oak_door[facing=east,half=lower]", "oak_door[facing=east,half=upper]", "oak_slab[type=double]",
             "wall_torch[facing=north]", "oak_planks", "oak_planks", "red_bed[part=head]", "red_bed[part=foot]"]
    house = Structure(source="test", size=(8, 1, 1), blocks=[Placement(at=(i, 0, 0), block=b) for i, b in enumerate(cells)])
    assert house.materials() == {"oak_slab": 2, "oak_planks": 2, "oak_door": 1, "torch": 1, "red_bed": 1}
    assert house.placed_at((10, 4, -3)).cells()[0] == ((10, 4, -3), "oak_door[facing=east,half=lower]")
