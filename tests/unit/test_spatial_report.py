"""The report's map: drawn from the run's map.sqlite beside the trace when there is one, and never
drawing grass or flowers as walls when it falls back to what mc-observe-blocks saw."""

from __future__ import annotations

import re

from agent.llm import Capabilities
from agent.replay.report import report_html
from agent.trace import read_trace
from agent.trace.schema import Pose, RunSetup, RunStart, ToolCall, ToolResult
from agent.world.spatial import SpatialMemory
from spatial_worlds import column, layer, survey

SETUP = RunSetup(config={}, package_version="0.1.0", mc_version="1.20.4", llm_backend="scripted", llm_model="x.py",
                 server="127.0.0.1:25565", local_server=True, scenario="room", seed=0)
POSE = Pose(x=0.5, y=1, z=0.5, yaw_deg=180, pitch_deg=0)


def write_trace(folder, tool: str, data: dict) -> None:
    result = {"status": "success", "data": data, "value": "seen"}
    events = [RunStart(goal="look", max_steps=1, tools=[tool], llm="scripted:x.py", setup=SETUP,
                       capabilities=Capabilities(select=True, json_schema=True)),
              ToolCall(call_id=1, tool=tool, tool_type="python", args={}, depth=0, outer_step=1, inner_step=None, pose=POSE),
              ToolResult(call_id=1, tool=tool, depth=0, outer_step=1, inner_step=None, result=result, duration_s=0.1, pose_before=POSE,
                         pose_after=POSE)]
    (folder / "trace.jsonl").write_text("".join(e.model_dump_json() + "\n" for e in events))


def rects(html: str, kind: str) -> list[tuple[float, float, float]]:
    return [(float(x), float(y), float(w)) for x, y, w in
            re.findall(rf'<rect class="{kind}" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', html)]


def test_the_map_beside_the_trace_is_drawn_walls_free_ground_visits_and_frontiers(tmp_path):
    write_trace(tmp_path, "mc-map", {})
    walls = {(x, y, 3) for x in range(-3, 4) for y in (1, 2)} - column(0, 3, 1, 2)  # a wall south, with a gap
    memory = SpatialMemory.open(tmp_path / "map.sqlite")
    memory.record(survey((-3, 0, -3), (4, 4, 4), solid=layer(0, -3, 3, -3, 3) | walls, unknown=layer(0, -3, 3, -3, -3)))
    memory.mark_visited(0, 1, 0)
    memory.close()
    html = report_html(read_trace(tmp_path / "trace.jsonl"))
    assert len(rects(html, "wall")) == 2  # the wall is two runs of three blocks, west and east of the gap
    assert rects(html, "visited") and rects(html, "free") and rects(html, "frontier")


def test_without_a_map_grass_and_flowers_are_not_walls(tmp_path):
    feet_level = ["0#1", ".2.", "..."]  # forward 1..-1, right -1..1: grass, stone, poppy; the bot; air
    grid = {"layout": "", "palette": {".": "air", "#": "stone", "0": "short_grass", "1": "poppy", "2": "tall_grass"},
            "layers": [["..."] * 3, feet_level, ["..."] * 3]}
    write_trace(tmp_path, "mc-observe-blocks", {"facing": "north", "feet": {"x": 0, "y": 1, "z": 0}, "radius": 1,
                                                "grid": grid, "hazards": []})
    html = report_html(read_trace(tmp_path / "trace.jsonl"))
    assert len(rects(html, "wall")) == 1  # the stone alone
