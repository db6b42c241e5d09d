"""Two evals side by side: per (scenario, llm), both success rates, their difference in
percentage points, and whether their 95% intervals overlap (if they do, the difference may
well be chance)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from agent.errors import ConfigError
from agent.eval.records import EPISODES_FILE, read_episodes
from agent.eval.stats import ALL, Row, summarize
from agent.eval.tables import rate_text, text_table


def load_rows(folder: Path) -> list[Row]:
    """The summary of an eval's result folder, from its episodes.jsonl."""
    if not folder.is_dir():
        raise ConfigError(f"eval: {folder} is not a folder of eval results")
    episodes = folder / EPISODES_FILE
    if not episodes.is_file():
        raise ConfigError(f"eval: {folder} has no {EPISODES_FILE}: is it an eval's result folder?")
    return summarize(read_episodes(episodes))


def compare(a_rows: Sequence[Row], b_rows: Sequence[Row], labels: tuple[str, str] = ("A", "B")) -> str:
    """A text table: A's rows in their order, then those only B has, the ALL rows last."""
    a = {(row.scenario, row.llm): row for row in a_rows}
    b = {(row.scenario, row.llm): row for row in b_rows}
    keys = sorted(dict.fromkeys([*a, *b]), key=lambda key: key[0] == ALL)  # stable: first-seen order otherwise
    header = ("scenario", "backend", labels[0], labels[1], f"{labels[1]} - {labels[0]}", "95% CIs")
    return text_table(header, [(*key, *_sides(a.get(key), b.get(key), labels)) for key in keys])


def _sides(a: Row | None, b: Row | None, labels: tuple[str, str]) -> tuple[str, str, str, str]:
    if a is None or b is None:
        only = labels[0] if b is None else labels[1]
        return (rate_text(a) if a else "-", rate_text(b) if b else "-", "", f"only in {only}")
    overlap = a.ci_low <= b.ci_high and b.ci_low <= a.ci_high
    return rate_text(a), rate_text(b), f"{100 * (b.rate - a.rate):+.0f} pp", "overlap" if overlap else "disjoint"
