"""The craft skill's survey of what lies near (skills/craft/tool.py `_near`): mc-find with count 1
returns only the nearest block of all the kinds asked, so every kind it does not name `missing`
is near too (in a taiga pit the stone underfoot is nearest, and the spruce 7 blocks off must
still be planned from, not an oak that is nowhere)."""

from __future__ import annotations

import importlib.util

from agent.paths import SKILLS_DIR
from agent.tools import ToolResult

_spec = importlib.util.spec_from_file_location("craft_skill", SKILLS_DIR / "craft" / "tool.py")
craft = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(craft)

WORLD = {"stone": 0.5, "spruce_log": 6.8, "dirt": 1.1, "iron_ore": 9.0}  # block kind -> distance


class NearestOnly:
    """mc-find as the tool answers with count 1: the nearest block among those asked, and the
    kinds with none in the radius."""

    def execute_action(self, action: dict) -> ToolResult:
        asked = action["blocks"]
        here = sorted((WORLD[k], k) for k in asked if k in WORLD)
        missing = [k for k in asked if k not in WORLD]
        if not here:
            return ToolResult.failure("not_found", "nothing found", data={"found": [], "missing": missing})
        nearest = {"kind": "block", "name": here[0][1], "distance": here[0][0]}
        return ToolResult.success({"found": [nearest], "missing": missing})


def test_every_kind_not_missing_is_near_not_only_the_nearest() -> None:
    near = craft._near(NearestOnly(), "wooden_pickaxe", None)
    assert {"spruce_log", "stone"} <= near
    assert "oak_log" not in near and "crafting_table" not in near
