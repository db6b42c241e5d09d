"""The report's picture of a build: each blueprint the goal check had, read in the world after
the run (the trace's `build_seen`), drawn as one small top-down grid per y layer, the blueprint
on the left and what the world holds on the right (x east to the right, z south downwards, as
the map). A cell's colour is its block's kind; on the world's side a wrong cell (another block,
or the block in another state) is crossed out and a missing one (nothing there) is a dashed
outline. Hovering a cell names the block asked and the block held, with their states."""

from __future__ import annotations

import zlib
from html import escape

from agent.trace.reader import Trace
from agent.trace.schema import BuildSeen, CellSeen, EMPTY_BLOCKS

LAYER_PX = 200  # a layer's grid is at most this wide or tall, unless its cells would be smaller than CELL_MIN_PX
CELL_MIN_PX, CELL_MAX_PX = 4, 32
GAP_PX, HEAD_PX = 16, 16  # between the blueprint and the world; the grids' titles above them
MARKED = "#b3261e"
# A block's colour by the first of these words its name holds (glass before the rest: a glass
# pane; cobblestone and sand before stone; dark_oak before oak); other kinds get a colour of their own.
KIND_COLOURS = (("glass", "#a8d8ea"), ("cobblestone", "#6e6e6e"), ("sand", "#e2d39b"), ("stone", "#a3a3a3"),
                ("dirt", "#8b5a2b"), ("grass", "#5d9b3a"), ("brick", "#a0493a"), ("torch", "#f0c419"),
                ("spruce", "#7a5a3a"), ("birch", "#d8c98f"), ("dark_oak", "#4a3320"), ("oak", "#b8945f"),
                ("planks", "#c8a165"), ("wool", "#eeeeee"), ("water", "#3f76e4"), ("lava", "#e0452b"))


def build_section(trace: Trace) -> str:
    """The build's heading and pictures; empty when the run's check had no blueprint."""
    builds = [e for e in trace.events if isinstance(e, BuildSeen)]
    if not builds:
        return ""
    intro = ("<p>Each blueprint of the goal check, read in the world after the run: one grid per layer, "
             "top-down and north up, the blueprint on the left, the world on the right.</p>")
    return "<h2>The build</h2>" + intro + "".join(_build(b) for b in builds)


def _build(build: BuildSeen) -> str:
    x0, z0 = min(c.at[0] for c in build.cells), min(c.at[2] for c in build.cells)
    wide = max(c.at[0] for c in build.cells) - x0 + 1
    deep = max(c.at[2] for c in build.cells) - z0 + 1
    k = min(max(LAYER_PX / max(wide, deep), CELL_MIN_PX), CELL_MAX_PX)
    layers = sorted({c.at[1] for c in build.cells})
    figures = "".join(_layer(y, [c for c in build.cells if c.at[1] == y], (x0, z0, wide, deep), k) for y in layers)
    ax, ay, az = build.anchor
    return (f'<div class="build"><p class="share">The blueprint at ({ax}, {ay}, {az}): {escape(build.said())}</p>'
            f'<div class="layers">{figures}</div>{_legend(build.cells)}</div>')


def _layer(y: int, cells: list[CellSeen], extent: tuple[int, int, int, int], k: float) -> str:
    x0, z0, wide, deep = extent
    width, height = wide * k, deep * k
    right_of = width + GAP_PX  # the world's grid starts here

    def box(cell: CellSeen, left: float) -> str:
        return (f'x="{left + (cell.at[0] - x0) * k:.1f}" y="{HEAD_PX + (cell.at[2] - z0) * k:.1f}" '
                f'width="{k:.1f}" height="{k:.1f}"')

    parts = [f'<svg class="layer" xmlns="http://www.w3.org/2000/svg" width="{2 * width + GAP_PX:.0f}" '
             f'height="{HEAD_PX + height:.0f}">',
             f'<text x="0" y="12" font-size="11">blueprint</text><text x="{right_of:.1f}" y="12" font-size="11">world</text>',
             f'<rect x="0" y="{HEAD_PX}" width="{width:.1f}" height="{height:.1f}" fill="#fafaf7" stroke="#ccc"/>',
             f'<rect x="{right_of:.1f}" y="{HEAD_PX}" width="{width:.1f}" height="{height:.1f}" fill="#fafaf7" stroke="#ccc"/>']
    for cell in cells:
        title = f"<title>({', '.join(map(str, cell.at))}): {escape(_said(cell))}</title>"
        parts.append(f'<rect class="cell wanted" {box(cell, 0)} fill="{colour(cell.wanted)}">{title}</rect>')
        parts.append(_held(cell, box(cell, right_of), title))
        if cell.wrong:
            left, top = right_of + (cell.at[0] - x0) * k, HEAD_PX + (cell.at[2] - z0) * k
            parts.append(f'<path d="M{left:.1f},{top:.1f}l{k:.1f},{k:.1f}m0,{-k:.1f}l{-k:.1f},{k:.1f}" '
                         f'stroke="{MARKED}" stroke-width="2"/>')
    parts.append("</svg>")
    return f'<figure class="layer">{"".join(parts)}<figcaption>y = {y}</figcaption></figure>'


def _held(cell: CellSeen, box: str, title: str) -> str:
    if cell.right:
        return f'<rect class="cell right" {box} fill="{colour(cell.held or cell.wanted)}">{title}</rect>'
    if cell.missing:
        return f'<rect class="cell missing" {box} fill="none" stroke="{MARKED}" stroke-dasharray="3 2">{title}</rect>'
    return f'<rect class="cell wrong" {box} fill="{colour(cell.held or "")}" stroke="{MARKED}" stroke-width="2">{title}</rect>'


def _said(cell: CellSeen) -> str:
    held = "nothing loaded" if cell.held is None else cell.held
    verdict = "right" if cell.right else "missing" if cell.missing else "wrong"
    return f"{verdict}: {cell.wanted} asked, {held} there"


def kind(spec: str) -> str:
    """`oak_stairs[facing=east]` -> `oak_stairs`."""
    return spec.split("[", 1)[0].removeprefix("minecraft:")


def colour(spec: str) -> str:
    name = kind(spec)
    if name in EMPTY_BLOCKS or not name:
        return "none"
    own = next((c for word, c in KIND_COLOURS if word in name), None)
    return own or f"hsl({zlib.crc32(name.encode()) % 360},45%,60%)"


def _legend(cells: list[CellSeen]) -> str:
    names = sorted({kind(s) for c in cells for s in (c.wanted, c.held) if s is not None} - EMPTY_BLOCKS)
    swatches = "".join(f'<span class="swatch" style="background:{colour(n)}"></span>{escape(n)} ' for n in names)
    marks = (f'<span class="swatch" style="border:2px solid {MARKED}"></span>wrong (crossed: another block or state) '
             f'<span class="swatch" style="border:2px dashed {MARKED}"></span>missing (nothing there)')
    return f'<p class="legend">{swatches}{marks}</p>'
