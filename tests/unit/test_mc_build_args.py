"""mc-build's arguments: a blueprint as big as a check's, its cells with states, and a time sized
to it when none is given."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from agent.checks.model import MAX_BLUEPRINT_CELLS
from agent.paths import WORLD_TOOLS_DIR
from agent.tools.runners import args_model

ARGS = args_model("mc-build", WORLD_TOOLS_DIR / "minecraft" / "mc-build" / "tool.py")


def _cells(n: int, block: str = "stone") -> list[dict]:
    return [{"at": [i % 20, i // 400, (i // 20) % 20], "block": block} for i in range(n)]


def test_a_blueprint_as_big_as_a_check_s_is_taken_and_its_time_sized_to_it() -> None:
    args = ARGS.model_validate({"anchor": [0, 5, 0], "blocks": _cells(MAX_BLUEPRINT_CELLS)})
    assert len(args.blocks) == MAX_BLUEPRINT_CELLS and args.seconds(MAX_BLUEPRINT_CELLS) == 1800
    small = ARGS.model_validate({"anchor": [0, 5, 0], "blocks": _cells(10)})
    assert small.seconds(10) == 60 + 3 * 10
    given = ARGS.model_validate({"anchor": [0, 5, 0], "blocks": _cells(10), "timeout_s": 45})
    assert given.seconds(10) == 45


def test_a_cell_keeps_its_state_and_a_bad_block_is_refused() -> None:
    args = ARGS.model_validate({"anchor": [0, 5, 0], "blocks": _cells(1, "minecraft:oak_stairs[half=bottom,facing=east]")})
    assert args.blocks[0].block == "oak_stairs[facing=east,half=bottom]"
    with pytest.raises(ValidationError, match="write a name, or name"):
        ARGS.model_validate({"anchor": [0, 5, 0], "blocks": _cells(1, "oak stairs!")})
    with pytest.raises(ValidationError):
        ARGS.model_validate({"anchor": [0, 5, 0], "blocks": _cells(MAX_BLUEPRINT_CELLS + 1)})
