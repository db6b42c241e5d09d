"""The report's top-down map of where the bot went (inline SVG; x east to the right, z south
downwards, so north is up), fitted to what matters: the path and what the run found and used.

The frame is the extent of the path and the landmarks, padded, its aspect kept: a long walk west
is a wide strip, not a thin line in a square of empty space. Under the path lies what the bot saw,
cut to that frame: the run's map (map.sqlite beside the trace: agent/world/spatial) at the levels
its feet were at, with walls, free ground, the places it stood and the frontiers; for a trace
without one, what mc-observe-blocks saw (blocks a body cannot pass at the feet level are walls).
Hazards and water are red. Over it, the landmarks (landmarks.py): trees whose logs were dug,
chests opened, crafting tables and furnaces used or set down, the build's footprint. Step numbers
sit where each step ended; a step that failed is red, so a person sees where the bot got stuck.
"""

from __future__ import annotations

import math
import sqlite3
from html import escape

from agent.mc.frame import to_world
from agent.mc.gamedata import passable_blocks
from agent.replay.landmarks import LANDMARK_COLOURS, Landmark, landmarks
from agent.replay.timeline import step_label
from agent.trace.reader import Trace
from agent.trace.schema import MethodStep, OuterStep, Pose, ToolCall, ToolResult
from agent.world.spatial import MAP_FILE, Mark, SpatialMemory, overview

# The frame's largest size in pixels, and the bounds of a block's size: a long walk is no wider
# than MAP_WIDE_PX unless its blocks would come out smaller than BLOCK_MIN_PX; a short one does not
# blow up past BLOCK_MAX_PX a block.
MAP_WIDE_PX, MAP_TALL_PX = 800, 560
BLOCK_MIN_PX, BLOCK_MAX_PX = 4, 32
PAD_BLOCKS = 3  # around the path and the landmarks, so the edge never cuts a marker or its label
MERGE_BLOCKS = 0.5
MARK_COLOURS = {Mark.WALL: "#8a8a8a", Mark.FREE: "#e3ead6", Mark.VISITED: "#b9d3f2", Mark.FRONTIER: "#f0b429",
                Mark.WET: "#e0452b"}


class Frame:
    """World (x, z) blocks to the SVG's pixels: the padded extent of some points, scaled to fit."""

    def __init__(self, points: list[tuple[float, float]]) -> None:
        xs, zs = [x for x, _ in points], [z for _, z in points]
        self.x0, self.z0 = math.floor(min(xs)) - PAD_BLOCKS, math.floor(min(zs)) - PAD_BLOCKS
        self.x1, self.z1 = math.ceil(max(xs)) + PAD_BLOCKS, math.ceil(max(zs)) + PAD_BLOCKS
        fit = min(MAP_WIDE_PX / (self.x1 - self.x0), MAP_TALL_PX / (self.z1 - self.z0))
        self.k = min(max(fit, BLOCK_MIN_PX), BLOCK_MAX_PX)
        self.width, self.height = (self.x1 - self.x0) * self.k, (self.z1 - self.z0) * self.k

    def holds(self, x: int, z: int) -> bool:
        return self.x0 <= x < self.x1 and self.z0 <= z < self.z1

    def px(self, x: float, z: float) -> tuple[float, float]:
        return (x - self.x0) * self.k, (z - self.z0) * self.k

    def at(self, x: float, z: float, names: tuple[str, str] = ("x", "y")) -> str:
        """`x="…" y="…"` of a world point, for an SVG element."""
        px, pz = self.px(x, z)
        return f'{names[0]}="{px:.1f}" {names[1]}="{pz:.1f}"'


def path(trace: Trace) -> list[Pose]:
    """Every pose the trace recorded, in order, repeats dropped."""
    poses: list[Pose] = []
    for event in trace.events:
        for pose in ((event.pose,) if isinstance(event, ToolCall) else
                     (event.pose_before, event.pose_after) if isinstance(event, ToolResult) else ()):
            if pose is not None and (not poses or (poses[-1].x, poses[-1].z) != (pose.x, pose.z)):
                poses.append(pose)
    return poses


def ground(trace: Trace, poses: list[Pose]) -> dict[tuple[int, int], Mark]:
    """Marks of world (x, z) columns to draw under the path: from the run's map when it has one,
    judged over the levels the bot's feet were at; else from what mc-observe-blocks saw."""
    map_file = trace.path.with_name(MAP_FILE)
    if map_file.is_file() and poses:
        levels = [math.floor(p.y) for p in poses]
        try:
            memory = SpatialMemory.open(map_file, read_only=True)
        except (sqlite3.Error, ValueError):
            memory = None  # not a map this mcagent reads: draw what the observations saw
        if memory is not None:
            try:
                return overview(memory, min(levels), max(levels))
            finally:
                memory.close()
    obstacles, hazards = observed(trace)
    return {**dict.fromkeys(obstacles, Mark.WALL), **dict.fromkeys(hazards, Mark.WET)}


def observed(trace: Trace) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(obstacles, hazards) as world (x, z) blocks, from every successful mc-observe-blocks:
    obstacles are blocks at feet level a body cannot pass (grass and flowers it can)."""
    passable = passable_blocks(trace.start.setup.mc_version if trace.start and trace.start.setup else None)
    obstacles, hazards = set(), set()
    for event in trace.events:
        data = event.result.get("data") if isinstance(event, ToolResult) and event.tool == "mc-observe-blocks" else None
        if not isinstance(data, dict) or event.result.get("status") != "success":
            continue
        grid = data["grid"]
        reach, radius = (len(grid["layers"]) - 1) // 2, data["radius"]
        for row, line in enumerate(grid["layers"][reach]):  # the layer at feet level
            for column, char in enumerate(line):
                name = grid["palette"].get(char)
                if name is not None and name not in passable:  # None: not loaded, not seen
                    forward, right = radius - row, column - radius
                    obstacles.add(_column(data, forward, right))
        hazards.update(_column(data, h["forward"], h["right"]) for h in data["hazards"])
    return obstacles, hazards


def _column(seen: dict, forward: int, right: int) -> tuple[int, int]:
    """The world (x, z) of an offset in an observation's egocentric frame."""
    dx, dz = to_world(forward, right, seen["facing"])
    return seen["feet"]["x"] + dx, seen["feet"]["z"] + dz


def map_svg(trace: Trace) -> str:
    poses = path(trace)
    found = landmarks(trace)
    points = [(p.x, p.z) for p in poses] + [(m.x + 0.5, m.z + 0.5) for m in found]
    if not points:
        return "<p>No poses were recorded: the run had no world attached.</p>"
    frame = Frame(points)
    cells = {column: mark for column, mark in ground(trace, poses).items() if frame.holds(*column)}
    parts = [f'<svg id="map" xmlns="http://www.w3.org/2000/svg" width="{frame.width:.0f}" height="{frame.height:.0f}" '
             f'viewBox="0 0 {frame.width:.0f} {frame.height:.0f}">',
             '<title>top-down map: north is up, x grows east (right), z grows south (down)</title>']
    parts += [f'<rect class="{mark.name.lower()}" {frame.at(x, z)} width="{frame.k * n:.1f}" height="{frame.k:.1f}" '
              f'fill="{MARK_COLOURS[mark]}"/>' for x, z, n, mark in _runs(cells)]
    parts += [_landmark(frame, m) for m in found]
    line = " ".join("{:.1f},{:.1f}".format(*frame.px(p.x, p.z)) for p in poses)
    parts.append(f'<polyline id="path" points="{line}" fill="none" stroke="#1f6feb" stroke-width="2"/>')
    for label, pose, failed in _markers(trace):
        colour = "#b3261e" if failed else "#1f6feb"
        parts.append(f'<circle class="step" {frame.at(pose.x, pose.z, ("cx", "cy"))} r="4" fill="{colour}">'
                     f'<title>step {escape(label)}</title></circle>')
        parts.append(f'<text {frame.at(pose.x + 0.2, pose.z - 0.2)} font-size="11" fill="{colour}">{escape(label)}</text>')
    if poses:
        parts.append(f'<text {frame.at(poses[0].x, poses[0].z)} font-size="12" font-weight="bold">start</text>')
    parts.append("</svg>")
    return "\n".join(parts) + _legend(found)


def _landmark(frame: Frame, mark: Landmark) -> str:
    """A build's column is a wash of colour; the rest are a ringed block, so they show over the ground."""
    colour = LANDMARK_COLOURS[mark.kind]
    title = f"<title>{escape(mark.what)}</title>"
    if mark.kind == "build":
        return (f'<rect class="found build" {frame.at(mark.x, mark.z)} width="{frame.k:.1f}" height="{frame.k:.1f}" '
                f'fill="{colour}" fill-opacity="0.45">{title}</rect>')
    return (f'<rect class="found {mark.kind}" {frame.at(mark.x, mark.z)} width="{frame.k:.1f}" height="{frame.k:.1f}" '
            f'fill="{colour}" stroke="#222" stroke-width="1">{title}</rect>')


def _legend(found: list[Landmark]) -> str:
    kinds = [kind for kind in LANDMARK_COLOURS if any(m.kind == kind for m in found)]
    swatches = "".join(f'<span class="swatch" style="background:{LANDMARK_COLOURS[kind]}"></span>{escape(kind)} '
                       for kind in kinds)
    return f'<p class="legend">{swatches}</p>' if kinds else ""


def _runs(cells: dict[tuple[int, int], Mark]) -> list[tuple[int, int, int, Mark]]:
    """The cells as (x, z, length, mark): runs of one mark along x, so a wall is one rectangle, not one per block."""
    runs: list[tuple[int, int, int, Mark]] = []
    for (x, z), mark in sorted(cells.items(), key=lambda c: (c[0][1], c[0][0])):
        if runs and runs[-1][1] == z and runs[-1][0] + runs[-1][2] == x and runs[-1][3] == mark:
            runs[-1] = (runs[-1][0], z, runs[-1][2] + 1, mark)
        else:
            runs.append((x, z, 1, mark))
    return runs


def _markers(trace: Trace) -> list[tuple[str, Pose, bool]]:
    """Each step's label, the last pose before it was recorded, and whether it failed. Steps
    that ended within MERGE_BLOCKS of where the one before ended share one marker ("1.1–1.3"),
    so that labels do not overlap."""
    groups: list[tuple[list[str], Pose, bool]] = []
    pose = None
    for event in trace.events:
        if isinstance(event, ToolResult) and event.pose_after is not None:
            pose = event.pose_after
        elif isinstance(event, OuterStep | MethodStep) and pose is not None:
            failed = event.status != "success"
            if groups and math.dist((groups[-1][1].x, groups[-1][1].z), (pose.x, pose.z)) < MERGE_BLOCKS:
                labels, first_pose, was_failed = groups[-1]
                groups[-1] = ([*labels, step_label(event)], first_pose, was_failed or failed)
            else:
                groups.append(([step_label(event)], pose, failed))
    return [(labels[0] if len(labels) == 1 else f"{labels[0]}–{labels[-1]}", p, failed) for labels, p, failed in groups]
