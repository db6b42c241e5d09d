"""A trace as one self-contained HTML page: the summary, a top-down map of where the bot went
and what it found and used (map.py), the build beside its blueprint when the goal check had one
(build.py), one table row per step, and where the time went. No script, no external asset.
"""

from __future__ import annotations

import json
from html import escape

from agent.replay.build import build_section
from agent.replay.map import map_svg
from agent.replay.timeline import catalog_said, clip, step_label
from agent.trace.reader import Trace
from agent.trace.schema import LlmCall, MethodStep, OuterStep, RunEnd, ToolCall, ToolResult

CSS = """body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}th{background:#eee}
.success{color:#16794a}.failed{color:#b3261e;font-weight:bold}.inner td:first-child{padding-left:1.5em}
code{font-size:12px;white-space:pre-wrap}.note{color:#b3261e;font-weight:bold}svg{border:1px solid #ccc;background:#fafaf7}
.layers{display:flex;flex-wrap:wrap;gap:1em}figure.layer{margin:0}figcaption{font-size:12px;text-align:center}
.swatch{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px;vertical-align:middle;box-sizing:border-box}"""


def steps(trace: Trace) -> list[OuterStep | MethodStep]:
    return [e for e in trace.events if isinstance(e, OuterStep | MethodStep)]


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
    cells = [step_label(step), escape(step.thoughts), f"<code>{escape(step.tool or '(none)')}</code>", escape(offered),
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
            f"ground, light blue: where the bot stood, amber: frontiers (known ground next to unknown space). "
            f"Squares: what the run found and used (the legend below the map).</p>"
            f"{map_svg(trace)}{build_section(trace)}"
            f"<h2>Where the time went</h2>{time_svg(time_split(trace))}"
            f'<h2>Steps</h2><table id="steps">{head}\n{rows}</table></body></html>\n')
