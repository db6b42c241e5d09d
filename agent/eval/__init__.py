"""`mcagent eval`'s figures, with no world: episode records, success rates with Wilson
intervals, tables for the terminal, the README and a browser, and two evals compared.

    append_episode(folder / EPISODES_FILE, record)     # as each episode ends
    rows = summarize(read_episodes(folder / EPISODES_FILE))
    print(terminal_table(rows))
    print(compare(load_rows(before), load_rows(after)))
"""

from agent.eval.compare import compare, load_rows
from agent.eval.records import EPISODES_FILE, EpisodeRecord, append_episode, read_episodes
from agent.eval.stats import ALL, Row, summarize, wilson
from agent.eval.tables import html_page, markdown_table, terminal_table

__all__ = [
    "ALL", "EPISODES_FILE", "EpisodeRecord", "Row", "append_episode", "compare", "html_page", "load_rows",
    "markdown_table", "read_episodes", "summarize", "terminal_table", "wilson",
]
