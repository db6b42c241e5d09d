"""What a run found and used, as world (x, z) columns for the report's map, read from the trace's
tool results: trees (logs dug), chests opened, crafting tables and furnaces used or set down, and
the build's footprint (the blueprint read after the run, else the cells mc-build placed).

Each tool says where in its result's data (world blocks: x east, y up, z south): a dig's `dug`
blocks (mc-collect and every digging run) or mc-dig's `position`; mc-chest's `chest`, mc-craft's
`table`, mc-smelt's `furnace`; mc-place's `position` for a table, furnace or chest set down;
mc-build's `placed`. A result without them (a failure before reaching anything) marks nothing.
"""

from __future__ import annotations

import math
from typing import Any, Literal, NamedTuple

from agent.trace.reader import Trace
from agent.trace.schema import BuildSeen, ToolResult

Kind = Literal["tree", "chest", "crafting table", "furnace", "build"]
LANDMARK_COLOURS: dict[Kind, str] = {"tree": "#2e7d32", "chest": "#a0662b", "crafting table": "#e0a030",
                                     "furnace": "#4a4a4a", "build": "#8250df"}
# The blocks mc-place sets down that the map marks, and as what.
PLACED_KINDS: dict[str, Kind] = {"chest": "chest", "crafting_table": "crafting table", "furnace": "furnace"}
# The block a tool's result names where it was used, by the field that holds it.
USED_AT: dict[str, tuple[str, Kind]] = {"mc-chest": ("chest", "chest"), "mc-craft": ("table", "crafting table"),
                                        "mc-smelt": ("furnace", "furnace")}


class Landmark(NamedTuple):
    kind: Kind
    x: int
    z: int
    what: str = ""  # a line for a person: `oak_log dug at (3, 5, -2)`


def landmarks(trace: Trace) -> list[Landmark]:
    """Each kind once per column, in the order the run met them."""
    found: dict[tuple[Kind, int, int], Landmark] = {}
    builds = [e for e in trace.events if isinstance(e, BuildSeen)]
    for event in trace.events:
        if isinstance(event, ToolResult) and isinstance(event.result.get("data"), dict):
            for mark in _used(event.tool, event.result["data"], built_seen=bool(builds)):
                found.setdefault((mark.kind, mark.x, mark.z), mark)
    for build in builds:
        for cell in build.cells:
            x, _, z = cell.at
            found.setdefault(("build", x, z), Landmark("build", x, z, f"the blueprint's column ({x}, {z})"))
    return list(found.values())


def _used(tool: str | None, data: dict[str, Any], built_seen: bool) -> list[Landmark]:
    if tool in USED_AT:
        field, kind = USED_AT[tool]
        return [_at(kind, data[field], f"{kind} used")] if data.get(field) else []
    if tool == "mc-place" and data.get("placed") and data.get("item") in PLACED_KINDS:
        return [_at(PLACED_KINDS[data["item"]], data["position"], f"{data['item']} set down")]
    if tool == "mc-build" and not built_seen:  # without the blueprint read at the end, what this call placed
        return [_at("build", cell, f"{cell.get('block')} placed") for cell in data.get("placed", [])]
    if tool == "mc-dig" and data.get("gone") and _log(data.get("block")):
        return [_at("tree", data["position"], f"{data['block']} dug")]
    return [_at("tree", seen["position"], f"{seen['block']} dug") for seen in data.get("dug", []) if _log(seen["block"])]


def _log(block: Any) -> bool:
    return isinstance(block, str) and block.endswith(("_log", "_stem"))


def _at(kind: Kind, where: dict[str, Any], what: str) -> Landmark:
    x, y, z = (math.floor(where[axis]) for axis in "xyz")  # a block's corner; a position floors to its block
    return Landmark(kind, x, z, f"{what} at ({x}, {y}, {z})")
