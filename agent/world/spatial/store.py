"""A map's chunks kept in one SQLite file, so that a resumed or replayed run still has them.

One row per 16x16x16 chunk: its chunk coordinates (world block // 16) and its 4,096 cell
bytes as a blob (see cells.py for what a byte holds). Beside them, the blocks mc-find has seen
by name: one row per world cell (`seen`).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np

from agent.world.spatial.cells import CHUNK, ChunkKey

# A run's map file, beside its trace.jsonl.
MAP_FILE = "map.sqlite"
# Bumped when the meaning of a cell byte changes; a file of another version is refused.
FORMAT = 1
SCHEMA = """CREATE TABLE IF NOT EXISTS chunks (
    cx INTEGER NOT NULL, cy INTEGER NOT NULL, cz INTEGER NOT NULL, cells BLOB NOT NULL,
    PRIMARY KEY (cx, cy, cz)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seen (
    x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (x, y, z)) WITHOUT ROWID"""


class ChunkStore:
    """The chunks of one map file. Writes come from whichever thread runs the tools, hence the lock."""

    def __init__(self, path: Path, *, read_only: bool = False):
        """`read_only`: open an existing file without writing to it (the report reads a run's map)."""
        self.path = path
        self._lock = threading.Lock()
        where = f"file:{path}?mode=ro" if read_only else str(path)
        self._db = sqlite3.connect(where, uri=read_only, check_same_thread=False)
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, FORMAT):
            self._db.close()
            raise ValueError(f"{path} is a map of format {version}; this mcagent reads format {FORMAT}")
        if not read_only:
            # WAL without a sync per commit: a write per survey costs well under a millisecond.
            self._db.executescript(f"PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA user_version={FORMAT}; {SCHEMA}")

    def load(self) -> dict[ChunkKey, np.ndarray]:
        rows = self._db.execute("SELECT cx, cy, cz, cells FROM chunks").fetchall()
        return {(cx, cy, cz): np.frombuffer(blob, dtype=np.uint8).reshape(CHUNK, CHUNK, CHUNK).copy()
                for cx, cy, cz, blob in rows}

    def save(self, chunks: dict[ChunkKey, np.ndarray]) -> None:
        rows = [(*key, cells.tobytes()) for key, cells in chunks.items()]
        with self._lock, self._db:
            self._db.executemany("INSERT OR REPLACE INTO chunks (cx, cy, cz, cells) VALUES (?, ?, ?, ?)", rows)

    def load_seen(self) -> dict[tuple[int, int, int], str]:
        try:
            rows = self._db.execute("SELECT x, y, z, name FROM seen").fetchall()
        except sqlite3.OperationalError:  # a map written before blocks were remembered, opened read-only
            return {}
        return {(x, y, z): name for x, y, z, name in rows}

    def save_seen(self, added: dict[tuple[int, int, int], str], gone: list[tuple[int, int, int]]) -> None:
        with self._lock, self._db:
            self._db.executemany("DELETE FROM seen WHERE x = ? AND y = ? AND z = ?", gone)
            self._db.executemany("INSERT OR REPLACE INTO seen (x, y, z, name) VALUES (?, ?, ?, ?)",
                                 [(*cell, name) for cell, name in added.items()])

    def close(self) -> None:
        with self._lock:
            self._db.close()
