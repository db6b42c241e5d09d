"""The report's build and map: a blueprint read after the run is drawn layer by layer beside what
the world holds, its wrong and missing cells marked; the map's frame fits the path and what the
run found and used (a long walk west is a wide strip), and marks the trees, chests, tables,
furnaces and the build; the run records its blueprint's cells in one bridge call."""

from __future__ import annotations

import re
from typing import Any

from agent.bridge import BotDisconnected
from agent.checks import parse_check
from agent.llm import Capabilities
from agent.replay.map import BLOCK_MIN_PX, MAP_WIDE_PX, PAD_BLOCKS
from agent.replay.report import report_html
from agent.replay.timeline import render
from agent.session.build_seen import record_builds
from agent.trace import TraceWriter, read_trace
from agent.trace.schema import BuildSeen, CellSeen, Event, Pose, RunStart, ToolCall, ToolResult

START = RunStart(goal="build", max_steps=3, tools=["mc-build"], llm="scripted:x.py",
                 capabilities=Capabilities(select=True, json_schema=True))


def pose(x: float, z: float) -> Pose:
    return Pose(x=x, y=5, z=z, yaw_deg=90, pitch_deg=0)


def tool(call_id: int, name: str, data: dict[str, Any], at: Pose) -> list[Event]:
    result = {"status": "success", "data": data, "value": "done"}
    return [ToolCall(call_id=call_id, tool=name, tool_type="python", args={}, depth=0, outer_step=call_id, inner_step=None,
                     pose=at),
            ToolResult(call_id=call_id, tool=name, depth=0, outer_step=call_id, inner_step=None, result=result,
                       duration_s=0.1, pose_before=at, pose_after=at)]


def report_of(tmp_path, events: list[Event]) -> str:
    path = tmp_path / "trace.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in [START, *events]))
    return report_html(read_trace(path))


def cell(x: int, y: int, z: int, wanted: str, held: str | None) -> CellSeen:
    right = held is not None and held.split("[")[0] == wanted.split("[")[0] and ("[" not in wanted or held == wanted)
    return CellSeen(at=(x, y, z), wanted=wanted, held=held, right=right)


# A 3 x 2 wall of dirt with a stair on top: the ground row right but for a stone, the top row
# with one dirt, one cell empty, one not loaded and the stair facing the wrong way.
WALL = BuildSeen(anchor=(0, 5, 2), cells=[
    cell(0, 5, 2, "dirt", "dirt"), cell(1, 5, 2, "dirt", "dirt"), cell(2, 5, 2, "dirt", "stone"),
    cell(0, 6, 2, "dirt", "dirt"), cell(1, 6, 2, "dirt", "air"), cell(2, 6, 2, "dirt", None),
    cell(1, 7, 2, "oak_stairs[facing=east,half=bottom]", "oak_stairs[facing=west,half=bottom]")])


def figure(html: str, y: int) -> str:
    """The layer's figure, up to its caption."""
    return re.search(rf'<figure class="layer">((?:(?!<figure).)*)<figcaption>y = {y}</figcaption>', html, re.S)[1]


def test_the_build_is_drawn_layer_by_layer_beside_the_world_with_wrong_and_missing_cells_marked(tmp_path):
    html = report_of(tmp_path, [WALL])
    assert html.count('<figure class="layer">') == 3
    ground, top, roof = figure(html, 5), figure(html, 6), figure(html, 7)
    assert (ground.count('class="cell wanted"'), ground.count('class="cell right"'), ground.count('class="cell wrong"'),
            ground.count('class="cell missing"')) == (3, 2, 1, 0)
    assert (top.count('class="cell right"'), top.count('class="cell wrong"'), top.count('class="cell missing"')) == (1, 0, 2)
    assert roof.count('class="cell wrong"') == 1 and "oak_stairs[facing=east,half=bottom] asked, " \
                                                     "oak_stairs[facing=west,half=bottom] there" in roof
    assert "3 of 7 cells right (43 %): 2 wrong, 2 missing" in html
    assert 'class="legend"' in html and "oak_stairs " in html and "stone " in html  # each kind, by name


def test_a_run_without_a_blueprint_has_no_build_section(tmp_path):
    html = report_of(tmp_path, tool(1, "mc-move", {}, pose(0.5, 0.5)))
    assert "<h2>The build</h2>" not in html and '<figure class="layer">' not in html


def viewbox(html: str) -> tuple[float, float]:
    width, height = re.search(r'<svg id="map"[^>]* viewBox="0 0 ([\d.]+) ([\d.]+)"', html).groups()
    return float(width), float(height)


def test_the_map_fits_a_long_walk_west_keeping_its_aspect(tmp_path):
    walk = [e for n, x in enumerate(range(0, -171, -10), 1) for e in tool(n, "mc-move", {}, pose(x + 0.5, 0.5))]
    width, height = viewbox(report_of(tmp_path, walk))
    blocks_wide, blocks_deep = 171 + 2 * PAD_BLOCKS, 1 + 2 * PAD_BLOCKS
    assert width == MAP_WIDE_PX  # the long side fills the frame
    assert abs(width / height - blocks_wide / blocks_deep) < 0.5  # not a square of empty space


def test_the_map_frames_and_marks_what_the_run_found_and_used(tmp_path):
    here = pose(0.5, 0.5)
    events = [*tool(1, "mc-collect", {"dug": [{"block": "oak_log", "position": {"x": 3, "y": 5, "z": 4}},
                                              {"block": "oak_log", "position": {"x": 3, "y": 6, "z": 4}},
                                              {"block": "dirt", "position": {"x": 1, "y": 4, "z": 0}}]}, here),
              *tool(2, "mc-chest", {"chest": {"x": -40, "y": 5, "z": 0}}, here),
              *tool(3, "mc-craft", {"table": {"x": 2, "y": 5, "z": -1}, "placed_table": True}, here),
              *tool(4, "mc-smelt", {"furnace": None}, here),
              *tool(5, "mc-place", {"item": "furnace", "position": {"x": -1, "y": 5, "z": 2}, "placed": True}, here),
              WALL]
    html = report_of(tmp_path, events)
    found = re.findall(r'<rect class="found ([a-z ]+)"', html)
    assert found.count("tree") == 1  # two logs of one tree, one column; the dirt is no tree
    assert (found.count("chest"), found.count("crafting table"), found.count("furnace"), found.count("build")) == (1, 1, 1, 3)
    width, _ = viewbox(html)
    assert width / (41 + 2 * PAD_BLOCKS) >= BLOCK_MIN_PX  # the chest 40 blocks west is in the frame
    assert "oak_log dug at (3, 5, 4)" in html


class CellsBot:
    """Answers readCells as read-cells.js would, or fails like a bot that left."""

    def __init__(self, held: dict[tuple[int, int, int], str] | None):
        self.held, self.sent = held, []

    def call(self, action: str, args: dict[str, Any]) -> Any:
        if self.held is None:
            raise BotDisconnected("bot is disconnected: kicked: bye")
        self.sent.append((action, args))
        ax, ay, az = args["anchor"]
        cells = [((ax + b["at"][0], ay + b["at"][1], az + b["at"][2]), b["block"]) for b in args["blocks"]]
        return {"cells": [{"at": list(at), "wanted": block, "held": self.held.get(at, "air"),
                           "right": self.held.get(at) == block} for at, block in cells]}


BLUEPRINT = {"blueprint": {"anchor": [0, 5, 2], "blocks": [{"at": [dx, 0, 0], "block": "dirt"} for dx in range(3)]}}


def test_a_run_records_each_blueprint_of_its_check_in_one_bridge_call():
    bot, writer = CellsBot({(0, 5, 2): "dirt", (1, 5, 2): "dirt"}), TraceWriter()
    record_builds(bot, parse_check({"all": [{"has_item": {"name": "dirt"}}, BLUEPRINT]}, "c"), writer)  # type: ignore[arg-type]
    assert [action for action, _ in bot.sent] == ["readCells"]
    seen = [e for e in writer.events if isinstance(e, BuildSeen)]
    assert len(seen) == 1 and seen[0].said() == "2 of 3 cells right (67 %): 0 wrong, 1 missing"
    assert "the blueprint at (0, 5, 2) after the run: 2 of 3" in render(seen[0])[0].plain


def test_a_check_without_a_blueprint_or_a_bot_gone_records_nothing():
    writer = TraceWriter()
    record_builds(CellsBot({}), parse_check({"sky_visible": True}, "c"), writer)  # type: ignore[arg-type]
    record_builds(CellsBot(None), parse_check(BLUEPRINT, "c"), writer)  # type: ignore[arg-type]
    assert not [e for e in writer.events if isinstance(e, BuildSeen)]


class FarBot(CellsBot):
    """A bot that ended far from the build: its cells read as not loaded until it walks back."""

    def call(self, action: str, args: dict[str, Any], timeout_s: float | None = None) -> Any:
        if action == "goto":
            self.sent.append((action, args))
            self.near = True
            return {}
        read = super().call(action, args)
        if not getattr(self, "near", False):
            read["cells"] = [{**cell, "held": None, "right": False} for cell in read["cells"]]
        return read


def test_a_build_read_from_far_away_is_read_again_after_walking_back_never_counted_as_air():
    bot, writer = FarBot({(0, 5, 2): "dirt", (1, 5, 2): "dirt", (2, 5, 2): "dirt"}), TraceWriter()
    record_builds(bot, parse_check(BLUEPRINT, "c"), writer)  # type: ignore[arg-type]
    assert [action for action, _ in bot.sent] == ["readCells", "goto", "readCells"]
    assert bot.sent[1][1]["allow_dig"] is False and bot.sent[1][1]["allow_build"] is False  # a walk changes no block
    [seen] = [e for e in writer.events if isinstance(e, BuildSeen)]
    assert seen.said() == "3 of 3 cells right (100 %)"
