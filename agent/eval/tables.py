"""An eval's summary rows as text for the terminal, a Markdown table for the README, and one
self-contained HTML page (no script, no external asset) with every episode linked to its trace.
The costs (LLM calls per inner step, where the planner's time went, who decided, refuted method
outcomes) are a second, narrower table with lines under it."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from statistics import median
from urllib.parse import quote

from agent.eval.records import DecisionCounts, EpisodeRecord
from agent.eval.stats import ALL, Row
from agent.replay.report import CSS

SUMMARY_HEAD = ("scenario", "backend", "episodes", "success", "95% CI", "false claims", "false successes",
                "median steps", "median LLM calls", "median wall s", "errors")
EPISODES_HEAD = ("scenario", "seed", "backend", "outcome", "success", "final check", "claims (refused)",
                 "steps (inner)", "LLM calls", "tokens in / out", "wall s", "LLM / tools / other s", "reason", "trace")
COSTS_HEAD = ("scenario", "backend", "calls/inner step", "LLM s/outer", "LLM", "tools", "other", "refuted")
COSTS_NOTE = ("calls/inner step: the LLM calls made in inner steps over the inner steps, all episodes summed.\n"
              "LLM s/outer: the median, over every outer step, of its seconds in LLM calls (its method's included).\n"
              "LLM, tools, other: shares of the planner's run time, summed (the server's start is not in it).\n"
              "refuted: methods that ended in an outcome whose checked [when: ...] condition was false.")
DECISIONS_HEAD = ("backend", "decisions", *DecisionCounts.model_fields)
DECISIONS_NOTE = "Who decided each step's tool, args and next, over every step (0 each: not recorded):"
# A backend spec longer than this is cut in its middle in the costs table, to keep it in 100 columns.
BACKEND_CHARS = 32


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


def costs_table(rows: Sequence[Row]) -> str:
    """LLM calls per inner step, the shares of the run time, refuted outcomes: a row per row."""
    return text_table(COSTS_HEAD, [_costs_cells(r, short=True) for r in rows])


def _costs_cells(r: Row, short: bool = False) -> tuple[str, ...]:
    per_step = f"{r.llm_calls_per_inner_step:.2f}" if r.llm_calls_per_inner_step is not None else "-"
    outer = f"{r.median_llm_s_per_outer_step:.2f}" if r.median_llm_s_per_outer_step is not None else "-"
    shares = (percent(share) if share is not None else "-" for share in (r.llm_share, r.tool_share, r.other_share))
    return (r.scenario, shorten(r.llm) if short else r.llm, per_step, outer, *shares, str(r.refuted_outcomes))


def shorten(text: str, width: int = BACKEND_CHARS) -> str:
    """`text` cut in its middle to at most `width` characters, keeping its kind and as much of its
    end as fits from a path separator on, e.g. scripted:.../explore_policy.py."""
    if len(text) <= width:
        return text
    kind, colon, _ = text.partition(":")
    head = kind + colon if colon and len(kind) < width // 2 else text[: width // 3]
    tail = text[len(text) - (width - 3 - len(head)):]
    if "/" in tail[:-1]:
        tail = tail[tail.index("/"):]
    return head + "..." + tail


def decisions_cells(counts: DecisionCounts) -> tuple[str, ...]:
    """The total, then each decider's count with its share, e.g. 8 (67%); a bare 0 for none."""
    total = counts.total
    return (str(total), *(f"{n} ({percent(n / total)})" if n else "0" for n in counts.model_dump().values()))


def milestone_lines(records: Sequence[EpisodeRecord]) -> list[str]:
    """Per backend and milestone, in the order first reached: in how many episodes, the median
    seconds and LLM calls by then; nothing when no episode had milestones."""
    reached: dict[tuple[str, str], list[tuple[float, int]]] = {}
    for r in records:
        for m in r.milestones:
            reached.setdefault((r.llm, m.check), []).append((m.after_s, m.llm_calls))
    if not reached:
        return []
    lines = ["milestones (episodes reaching it; median seconds after the start, median LLM calls by then):"]
    for (llm, check), times in reached.items():
        total = sum(1 for r in records if r.llm == llm)
        lines.append(f"  {llm}: {check}: {len(times)}/{total}; {median([t for t, _ in times]):.1f} s; "
                     f"{median([c for _, c in times]):g} calls")
    return lines


def refuted_lines(records: Sequence[EpisodeRecord]) -> list[str]:
    """A line that says none were refuted, or one naming each episode that had some."""
    had = [r for r in records if r.refuted_outcomes]
    if not had:
        return [f"refuted method outcomes: 0 in {len(records)} episodes"]
    total = sum(len(r.refuted_outcomes) for r in had)
    return [f"refuted method outcomes: {total} in {len(had)} of {len(records)} episodes:"] + [
        f"  {r.name()}: {'; '.join(r.refuted_outcomes)} ({r.trace or 'no trace'})" for r in had
    ]


def build_lines(records: Sequence[EpisodeRecord]) -> list[str]:
    """Each construction episode's score, then their distribution: min, median, max and how many
    were all right; nothing when no episode was scored."""
    scored = [(r.name(), r.build) for r in records if r.build is not None]
    if not scored:
        return []
    shares = [build.share for _, build in scored]
    return ["construction score (Mindcraft's: matches / (matches + mismatches), air included, cells where both "
            "are air skipped):", *(f"  {name}: {build.text()}" for name, build in scored),
            f"  {len(shares)} scored: min {percent(min(shares))}, median {percent(median(shares))}, max "
            f"{percent(max(shares))}; {sum(share == 1.0 for share in shares)} at 100 %"]


def decisions_table(rows: Sequence[Row]) -> str:
    """Who decided, a row per backend (its ALL row), over every step of its episodes."""
    return text_table(DECISIONS_HEAD,
                      [(shorten(r.llm), *decisions_cells(r.decisions)) for r in rows if r.scenario == ALL])


def costs_text(rows: Sequence[Row], records: Sequence[EpisodeRecord]) -> str:
    """What the costs table's columns mean, the table, who decided, and the refuted outcomes."""
    return "\n".join([COSTS_NOTE, costs_table(rows), "", DECISIONS_NOTE, decisions_table(rows), "",
                      *refuted_lines(records), *milestone_lines(records)])


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
    costs = ["".join(f"<td>{escape(cell)}</td>" for cell in _costs_cells(r)) for r in rows]
    decisions = ["".join(f"<td>{escape(cell)}</td>" for cell in (r.llm, *decisions_cells(r.decisions)))
                 for r in rows if r.scenario == ALL]
    shown = escape(title)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{shown}</title><style>{CSS}</style>'
            f"</head><body><h1>{shown}</h1><h2>Summary</h2><p>Success is verified by each scenario's check; the "
            f"interval is Wilson's at 95%. A false claim is a DONE the check refused.</p>"
            f"{_table('summary', SUMMARY_HEAD, summary)}"
            f"<h2>Costs</h2>{_lines(COSTS_NOTE.splitlines())}{_table('costs', COSTS_HEAD, costs)}"
            f"{_lines([DECISIONS_NOTE])}{_table('decisions', DECISIONS_HEAD, decisions)}"
            f"{_lines(refuted_lines(records))}{_lines(build_lines(records)) if build_lines(records) else ''}"
            f"<h2>Episodes</h2><p>Hover over a scenario for its goal and check.</p>"
            f"{_table('episodes', EPISODES_HEAD, [_episode_cells(record) for record in records])}</body></html>\n")


def _lines(lines: Sequence[str]) -> str:
    return "<p>" + "<br>".join(escape(line) for line in lines) + "</p>"


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
             f"{r.tokens_in:,} / {r.tokens_out:,}", f"{r.wall_s:.1f}", _split(r), escape(r.reason), trace]
    return "".join(f"<td>{cell}</td>" for cell in cells)


def _split(r: EpisodeRecord) -> str:
    """The planner's run time as LLM / tools / other seconds; "-" where the record does not keep it."""
    return f"{r.llm_s:.1f} / {r.tool_s:.1f} / {r.other_s:.1f}" if r.run_s is not None else "-"
