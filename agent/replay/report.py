"""A trace as one self-contained HTML page: the summary, a top-down map of where the bot went
(inline SVG), one table row per step, and where the time went. No script, no external asset.

The map is drawn from the poses around tool calls (x east to the right, z south downwards,
so north is up) over what the bot saw: the run's map (map.sqlite beside the trace:
agent/world/spatial) at the levels its feet were at, with walls, free ground, the places it
stood and the frontiers; for a trace without one, what mc-observe-blocks saw (blocks a body
cannot pass at the feet level are walls). Hazards and water are red. Step numbers sit where
each step ended; a step that failed is red, so a person sees at a glance where the bot got stuck.
"""

from __future__ import annotations

import json
import math
import sqlite3
from html import escape

from agent.mc.frame import to_world
from agent.mc.gamedata import passable_blocks
from agent.trace.reader import Trace
from agent.trace.schema import LlmCall, MethodStep, OuterStep, Pose, RunEnd, ToolCall, ToolResult
from agent.replay.timeline import catalog_said, clip
from agent.world.spatial import MAP_FILE, Mark, SpatialMemory, overview

MAP_PX, CELL_MIN_PX = 560, 4
MERGE_BLOCKS = 0.5
MARK_COLOURS = {Mark.WALL: "#8a8a8a", Mark.FREE: "#e3ead6", Mark.VISITED: "#b9d3f2", Mark.FRONTIER: "#f0b429",
                Mark.WET: "#e0452b"}
CSS = """body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}th{background:#eee}
.success{color:#16794a}.failed{color:#b3261e;font-weight:bold}.inner td:first-child{padding-left:1.5em}
code{font-size:12px;white-space:pre-wrap}.note{color:#b3261e;font-weight:bold}svg{border:1px solid #ccc;background:#fafaf7}"""


def steps(trace: Trace) -> list[OuterStep | MethodStep]:
    return [e for e in trace.events if isinstance(e, OuterStep | MethodStep)]


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
    cells = ground(trace, poses)
    points = [(p.x, p.z) for p in poses] + [(x + 0.5, z + 0.5) for x, z in cells]
    if not points:
        return "<p>No poses were recorded: the run had no world attached.</p>"
    xs, zs = [x for x, _ in points], [z for _, z in points]
    x0, z0 = min(xs) - 1, min(zs) - 1
    span = max(max(xs) + 1 - x0, max(zs) + 1 - z0)
    k = max(MAP_PX / span, CELL_MIN_PX)
    size = span * k

    def at(x: float, z: float) -> str:
        return f'{(x - x0) * k:.1f}" y="{(z - z0) * k:.1f}'

    parts = [f'<svg id="map" xmlns="http://www.w3.org/2000/svg" width="{size:.0f}" height="{size:.0f}">',
             '<title>top-down map: north is up, x grows east (right), z grows south (down)</title>']
    parts += [f'<rect class="{mark.name.lower()}" x="{at(x, z)}" width="{k * n:.1f}" height="{k:.1f}" fill="{MARK_COLOURS[mark]}"/>'
              for x, z, n, mark in _runs(cells)]
    line = " ".join(f"{(p.x - x0) * k:.1f},{(p.z - z0) * k:.1f}" for p in poses)
    parts.append(f'<polyline id="path" points="{line}" fill="none" stroke="#1f6feb" stroke-width="2"/>')
    for label, pose, failed in _markers(trace):
        colour = "#b3261e" if failed else "#1f6feb"
        parts.append(f'<circle class="step" cx="{(pose.x - x0) * k:.1f}" cy="{(pose.z - z0) * k:.1f}" r="4" fill="{colour}">'
                     f'<title>step {escape(label)}</title></circle>')
        parts.append(f'<text x="{at(pose.x + 0.2, pose.z - 0.2)}" font-size="11" fill="{colour}">{escape(label)}</text>')
    if poses:
        parts.append(f'<text x="{at(poses[0].x, poses[0].z)}" font-size="12" font-weight="bold">start</text>')
    parts.append("</svg>")
    return "\n".join(parts)


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
                groups[-1] = ([*labels, label(event)], first_pose, was_failed or failed)
            else:
                groups.append(([label(event)], pose, failed))
    return [(labels[0] if len(labels) == 1 else f"{labels[0]}–{labels[-1]}", p, failed) for labels, p, failed in groups]


def label(step: OuterStep | MethodStep) -> str:
    where = f"{step.outer_step}.{step.inner_loop.inner_step}" if isinstance(step, MethodStep) else str(step.outer_step)
    return f"sub{step.plan}:{where}" if step.plan else where


def time_split(trace: Trace) -> dict[str, float]:
    """Seconds spent in the LLM, in game actions (tool calls that made no nested call, llm tools
    left out as their time is LLM time), and the rest."""
    llm = sum(e.latency_s for e in trace.events if isinstance(e, LlmCall))
    open_ids: list[int] = []
    not_leaves = {e.call_id for e in trace.events if isinstance(e, ToolCall) and e.tool_type == "llm"}
    for event in trace.events:
        if isinstance(event, ToolCall):
            not_leaves.update(open_ids[-1:])
            open_ids.append(event.call_id)
        elif isinstance(event, ToolResult) and event.call_id in open_ids:
            open_ids.remove(event.call_id)
    leaves = sum(e.duration_s for e in trace.events if isinstance(e, ToolResult) and e.call_id not in not_leaves)
    end = trace.end
    wall = end.wall_s if end is not None else (trace.events[-1].t - trace.events[0].t if trace.events else 0.0)
    return {"LLM": llm, "game actions": leaves, "overhead": max(wall - llm - leaves, 0.0)}


def time_svg(split: dict[str, float]) -> str:
    total = sum(split.values()) or 1.0
    colours = {"LLM": "#8250df", "game actions": "#1a7f37", "overhead": "#9a6700"}
    parts, x = ['<svg id="time" xmlns="http://www.w3.org/2000/svg" width="600" height="90">'], 0.0
    for row, (name, seconds) in enumerate(split.items()):
        width = 600 * seconds / total
        parts.append(f'<rect x="{x:.1f}" y="0" width="{width:.1f}" height="30" fill="{colours[name]}">'
                     f"<title>{name}: {seconds:.2f} s</title></rect>")
        parts.append(f'<rect x="0" y="{38 + 17 * row}" width="12" height="12" fill="{colours[name]}"/>'
                     f'<text x="18" y="{48 + 17 * row}" font-size="12">{name}: {seconds:.2f} s '
                     f"({100 * seconds / total:.0f}%)</text>")
        x += width
    parts.append("</svg>")
    return "\n".join(parts)


def _row(step: OuterStep | MethodStep) -> str:
    args = json.dumps({k: v for k, v in step.action.items() if k not in ("type", "_inner_loop")}, ensure_ascii=False)
    offered = ", ".join(step.offered) if isinstance(step, OuterStep) else ""
    loop = f'<br><span class="note">{escape(step.loop)}</span>' if step.loop else ""
    cells = [label(step), escape(step.thoughts), f"<code>{escape(step.tool or '(none)')}</code>", escape(offered),
             f"<code>{escape(args)}</code>",
             f'<span class="{escape(step.status)}">{escape(step.status)}</span> '
             f'{escape(clip(str(step.result.get("value", "")), 300))}{loop}',
             f"{step.wall_s:.2f}", f"{step.tool_s:.2f}", f"{step.llm.seconds:.2f}"]
    kind = "inner" if isinstance(step, MethodStep) else "outer"
    return f'<tr class="step {kind}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def summary(trace: Trace) -> str:
    start, end = trace.start, trace.end
    rows = [("goal", start.goal if start else "?")]
    if start is not None and start.setup is not None:
        s = start.setup
        rows += [("server", f"{s.server} (Minecraft {s.mc_version}, scenario {s.scenario}, seed {s.seed})"),
                 ("mcagent", s.package_version)]
    rows.append(("LLM", start.llm if start else "?"))
    if start is not None and start.catalog is not None:
        rows.append(("tools offered", catalog_said(start)))
    if isinstance(end, RunEnd):
        u = end.usage
        rows += [("outcome", f"{end.outcome} ({end.reason})"), ("steps", f"{end.steps} outer, {end.inner_steps} inner"),
                 ("wall", f"{end.wall_s:.1f} s"), ("LLM use", f"{u.calls} calls, {u.seconds:.1f} s, "
                                                           f"{u.prompt_tokens:,} tokens in, {u.completion_tokens:,} out")]
    table = "".join(f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>" for k, v in rows)
    note = "".join(f'<p class="note">{escape(text)}</p>' for text in (trace.abnormal, trace.warning) if text)
    return f'<table id="summary">{table}</table>{note}'


def report_html(trace: Trace) -> str:
    head = "<tr><th>step</th><th>thoughts</th><th>tool</th><th>offered</th><th>args</th><th>result</th><th>wall s</th><th>tool s</th><th>LLM s</th></tr>"
    rows = "\n".join(_row(step) for step in steps(trace))
    title = escape(f"mcagent run: {trace.start.goal if trace.start else trace.path}")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title><style>{CSS}</style></head>'
            f"<body><h1>{title}</h1><h2>Summary</h2>{summary(trace)}"
            f"<h2>Where the bot went</h2><p>Top-down, north up. Blue: the path and the steps; red: failed steps, "
            f"hazards and water; grey: walls at the bot's feet level; from the run's map, also pale: known free "
            f"ground, light blue: where the bot stood, amber: frontiers (known ground next to unknown space).</p>"
            f"{map_svg(trace)}"
            f"<h2>Where the time went</h2>{time_svg(time_split(trace))}"
            f'<h2>Steps</h2><table id="steps">{head}\n{rows}</table></body></html>\n')
