"""The game's names of blocks and items, as typed strings, and an item counted over stacks."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictInt

from agent.config.layers import StrictModel

BlockName = Annotated[str, Field(pattern=r"^[a-z0-9_]+$", description="a block name such as stone or lava")]
ItemName = Annotated[str, Field(pattern=r"^[a-z0-9_]+$", description="an item name such as dirt or stone_pickaxe")]
MAX_ITEM_COUNT = 64 * 36  # every inventory slot a stack of 64


class Item(StrictModel):
    """An item and how many of it, summed over stacks."""

    name: ItemName
    count: StrictInt = Field(1, ge=1, le=MAX_ITEM_COUNT)
