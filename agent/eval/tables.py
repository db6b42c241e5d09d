"""An eval's summary rows as text for the terminal, a Markdown table for the README, and one
self-contained HTML page (no script, no external asset) with every episode linked to its trace."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from urllib.parse import quote

from agent.eval.records import EpisodeRecord
from agent.eval.stats import ALL, Row
from agent.trace.report import CSS

SUMMARY_HEAD = ("scenario", "backend", "episodes", "success", "95% CI", "false claims", "false successes",
                "median steps", "median LLM calls", "median wall s", "errors")
EPISODES_HEAD = ("scenario", "seed", "backend", "outcome", "success", "final check", "claims (refused)",
                 "steps (inner)", "LLM calls", "tokens in / out", "wall s", "reason", "trace")


def percent(fraction: float) -> str:
    return f"{100 * fraction:.0f}%"


def interval(row: Row) -> str:
    """The Wilson interval in percent, e.g. 21-94."""
    return f"{100 * row.ci_low:.0f}-{100 * row.ci_high:.0f}"


def rate_text(row: Row) -> str:
    """e.g. 67% [21-94]: the success rate and its 95% interval."""
    return f"{percent(row.rate)} [{interval(row)}]"


def claims_text(row: Row) -> str:
    """Refused claims of all claims, e.g. 1/3 (33%); "none" when the model claimed nothing."""
    if row.false_claim_rate is None:
        return "none"
    return f"{row.claims_refused}/{row.claims} ({percent(row.false_claim_rate)})"


def number(value: float) -> str:
    return f"{value:g}"


def text_table(header: Sequence[str], lines: Sequence[Sequence[str]]) -> str:
    """Fixed-width columns, each as wide as its widest cell, two spaces apart."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *lines)]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
                     for line in (header, *lines))


def terminal_table(rows: Sequence[Row]) -> str:
    header = ("scenario", "backend", "episodes", "success [95% CI]", "false claims", "false successes",
              "median steps", "median LLM calls", "median wall s", "errors")
    return text_table(header, [
        (r.scenario, r.llm, str(r.episodes), rate_text(r), claims_text(r), str(r.false_successes),
         number(r.median_steps), number(r.median_llm_calls), f"{r.median_wall_s:.1f}", str(r.errors))
        for r in rows
    ])


def markdown_table(rows: Sequence[Row]) -> str:
    header = ("scenario", "backend", "success", "95% CI", "false claims", "median steps", "median LLM calls",
              "median wall s")
    lines = [header, ("---",) * len(header)] + [
        (f"**{r.scenario}**" if r.scenario == ALL else r.scenario, f"`{r.llm}`",
         f"{percent(r.rate)} ({r.successes}/{r.episodes})", f"{interval(r)}%", claims_text(r),
         number(r.median_steps), number(r.median_llm_calls), f"{r.median_wall_s:.1f}")
        for r in rows
    ]
    return "\n".join("| " + " | ".join(_markdown_cell(cell) for cell in line) + " |" for line in lines) + "\n"


def _markdown_cell(text: str) -> str:
    """A pipe would end the cell, a newline the table."""
    return text.replace("|", "\\|").replace("\n", " ")


def html_page(rows: Sequence[Row], records: Sequence[EpisodeRecord], title: str) -> str:
    summary = [
        "".join(f"<td>{escape(cell)}</td>" for cell in (
            r.scenario, r.llm, str(r.episodes), f"{percent(r.rate)} ({r.successes}/{r.episodes})", f"{interval(r)}%",
            claims_text(r), str(r.false_successes), number(r.median_steps), number(r.median_llm_calls),
            f"{r.median_wall_s:.1f}", str(r.errors)))
        for r in rows
    ]
    shown = escape(title)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{shown}</title><style>{CSS}</style>'
            f"</head><body><h1>{shown}</h1><h2>Summary</h2><p>Success is verified by each scenario's check; the "
            f"interval is Wilson's at 95%. A false claim is a DONE the check refused.</p>"
            f"{_table('summary', SUMMARY_HEAD, summary)}"
            f"<h2>Episodes</h2><p>Hover over a scenario for its goal and check.</p>"
            f"{_table('episodes', EPISODES_HEAD, [_episode_cells(record) for record in records])}</body></html>\n")


def _table(name: str, head: Sequence[str], rows: Sequence[str]) -> str:
    """`rows` are each row's cells, already HTML."""
    header = "<tr>" + "".join(f"<th>{escape(cell)}</th>" for cell in head) + "</tr>"
    return f'<table id="{name}">{header}\n' + "\n".join(f"<tr>{row}</tr>" for row in rows) + "</table>"


def _episode_cells(r: EpisodeRecord) -> str:
    verdict = "success" if r.success else "failed"
    final = {True: "held", False: "refused", None: "unknown"}[r.final_check]
    trace = (f'<a href="{escape(quote(r.trace, safe="/:~"))}"><code>{escape(r.trace)}</code></a>'
             if r.trace else "none")
    about = escape(f"goal: {r.goal}\ncheck: {r.check}")
    cells = [f'<span title="{about}">{escape(r.scenario)}</span>', str(r.seed), f"<code>{escape(r.llm)}</code>",
             escape(r.outcome), f'<span class="{verdict}">{verdict}</span>', final,
             f"{r.claims} ({r.claims_refused})", f"{r.steps} ({r.inner_steps})", str(r.llm_calls),
             f"{r.tokens_in:,} / {r.tokens_out:,}", f"{r.wall_s:.1f}", escape(r.reason), trace]
    return "".join(f"<td>{cell}</td>" for cell in cells)
