"""`mcagent eval`'s figures, with no world: episode records, success rates with Wilson
intervals, tables for the terminal, the README and a browser, and two evals compared.

    append_episode(folder / EPISODES_FILE, record)     # as each episode ends
    records = read_episodes(folder / EPISODES_FILE)
    rows = summarize(records)
    print(terminal_table(rows))
    print(costs_text(rows, records))                   # LLM calls per inner step, time, refuted outcomes
    print(compare(load_rows(before), load_rows(after)))
"""

from agent.eval.compare import compare, load_rows
from agent.eval.records import (
    EPISODES_FILE, DecisionCounts, EpisodeRecord, TraceCosts, append_episode, read_episodes, trace_costs,
)
from agent.eval.stats import ALL, Row, summarize, wilson
from agent.eval.tables import costs_table, costs_text, html_page, markdown_table, terminal_table

__all__ = [
    "ALL", "EPISODES_FILE", "DecisionCounts", "EpisodeRecord", "Row", "TraceCosts", "append_episode", "compare",
    "costs_table", "costs_text", "html_page", "load_rows", "markdown_table", "read_episodes", "summarize",
    "terminal_table", "trace_costs", "wilson",
]
