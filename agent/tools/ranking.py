"""How well each tool fits a goal: SQLite FTS5's bm25 over what a Skill.md says of the tool.

Each tool is one row of an in-memory FTS5 table with the porter stemmer ("logs" finds "log",
"digging" finds "dig"), its columns weighted by how much they say about when to pick the tool:
the `when_to_use` text is written for exactly that, the description is the catalog's line, the
name's words count (mc-dig-stairs: dig, stairs), and the body only a little (a method's protocol
names every tool it calls). The goal's words are matched with OR, common words left out, so a
tool scores by the words it shares with the goal, rarer words weighing more.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable

from agent.tools.spec import ToolSpec

# Column weights for bm25(): name, description, when_to_use, body.
WEIGHTS = (2.0, 3.0, 4.0, 0.5)
# Words that say nothing about which tool fits: FTS5's bm25 would still count them.
STOPWORDS = frozenset(
    "a an and are as at be by can do does for from get go has have i if in into is it its me my of off on "
    "onto or out over please some than that the their them then there these this those to too until up "
    "use using was we what when where which while with you your".split()
)
_WORD = re.compile(r"[a-z0-9]+")


def goal_words(text: str) -> list[str]:
    """The words of `text` that can tell tools apart: lower case, no stopwords, each once."""
    return list(dict.fromkeys(w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1))


class ToolIndex:
    """The tools given, indexed once; `scores(goal)` for each goal."""

    def __init__(self, specs: Iterable[ToolSpec]):
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE VIRTUAL TABLE tools USING fts5(name, description, when_to_use, body, "
                         "tokenize='porter unicode61')")
        self._names: list[str] = []
        for spec in specs:
            self._names.append(spec.name)
            self._db.execute("INSERT INTO tools(rowid, name, description, when_to_use, body) VALUES (?, ?, ?, ?, ?)",
                             (len(self._names), spec.name.replace("-", " "), spec.description,
                              spec.when_to_use or "", spec.body))

    def scores(self, goal: str) -> dict[str, float]:
        """Each tool that shares a word with `goal`, by relevance (bm25's, sign turned: higher
        fits better); tools sharing none are absent."""
        words = goal_words(goal)
        if not words:
            return {}
        query = " OR ".join(f'"{w}"' for w in words)
        rows = self._db.execute(f"SELECT rowid, bm25(tools, {', '.join(map(str, WEIGHTS))}) FROM tools "
                                "WHERE tools MATCH ?", (query,))
        return {self._names[rowid - 1]: -score for rowid, score in rows}
