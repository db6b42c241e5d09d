"""Notes, Collections and persistent bindings in one SQLite file, with FTS5 over notes."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from agent.infospace.errors import InfospaceError
from agent.infospace.models import Collection, Note, collection_id, note_id
from pydantic import JsonValue

# Every statement is idempotent, so opening an existing database is the same as creating one.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('text', 'json')),
    body TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts USING fts5(name, body, content='notes', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS notes_ai AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts(rowid, name, body) VALUES (new.id, new.name, new.body);
END;
CREATE TRIGGER IF NOT EXISTS notes_au AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts(notes_fts, rowid, name, body) VALUES ('delete', old.id, old.name, old.body);
    INSERT INTO notes_fts(rowid, name, body) VALUES (new.id, new.name, new.body);
END;
CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT
);
CREATE VIRTUAL TABLE IF NOT EXISTS collections_fts USING fts5(name, content='collections', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS collections_ai AFTER INSERT ON collections BEGIN
    INSERT INTO collections_fts(rowid, name) VALUES (new.id, new.name);
END;
CREATE TRIGGER IF NOT EXISTS collections_au AFTER UPDATE ON collections BEGIN
    INSERT INTO collections_fts(collections_fts, rowid, name) VALUES ('delete', old.id, old.name);
    INSERT INTO collections_fts(rowid, name) VALUES (new.id, new.name);
END;
CREATE TABLE IF NOT EXISTS members (
    collection_id INTEGER NOT NULL REFERENCES collections(id),
    position INTEGER NOT NULL,
    note_id INTEGER NOT NULL REFERENCES notes(id),
    PRIMARY KEY (collection_id, position)
);
CREATE TABLE IF NOT EXISTS bindings (
    name TEXT PRIMARY KEY,
    resource_id TEXT NOT NULL
);
"""


def fts_query(text: str) -> str:
    """The words of `text`, each quoted, so that any input is a valid FTS5 query matching all of them."""
    words = re.findall(r"\w+", text)
    if not words:
        raise InfospaceError("bad_value", f"search query {text!r} has no words to search for")
    return " ".join(f'"{word}"' for word in words)


class Store:
    """The SQLite file behind the infospace. ":memory:" gives a throwaway one (tests, benchmarks)."""

    def __init__(self, path: Path | str):
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # Autocommit: each write is durable on return; multi-row writes use `with self._db`.
        # Shared across threads: a python tool with a timeout runs in a worker thread, and the
        # notes its nested calls keep land here. SQLite's serialized mode (sqlite3.threadsafety
        # 3) makes one connection safe to share; the executor runs one call at a time.
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    # Notes

    def create_note(self, content: JsonValue, name: str | None = None) -> Note:
        kind, body = _encode(content)
        cur = self._db.execute("INSERT INTO notes (name, kind, body) VALUES (?, ?, ?)", (name, kind, body))
        return Note(id=note_id(cur.lastrowid), name=name, content=content)

    def note(self, number: int) -> Note:
        row = self._db.execute("SELECT id, name, kind, body FROM notes WHERE id = ?", (number,)).fetchone()
        if row is None:
            raise InfospaceError("not_found", f"no note {note_id(number)}")
        return _note(row)

    def update_note(self, number: int, content: JsonValue) -> Note:
        self.note(number)
        kind, body = _encode(content)
        self._db.execute("UPDATE notes SET kind = ?, body = ? WHERE id = ?", (kind, body, number))
        return self.note(number)

    def search_notes(self, query: str, limit: int, within: int | None = None) -> list[Note]:
        """Best matches first (FTS5 rank), only members of collection `within` when given."""
        sql = "SELECT n.id, n.name, n.kind, n.body FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid"
        sql += " WHERE notes_fts MATCH ?"
        params: list[object] = [fts_query(query)]
        if within is not None:
            sql += " AND n.id IN (SELECT note_id FROM members WHERE collection_id = ?)"
            params.append(within)
        rows = self._db.execute(f"{sql} ORDER BY rank LIMIT ?", (*params, limit)).fetchall()
        return [_note(row) for row in rows]

    # Collections

    def create_collection(self, note_numbers: list[int], name: str | None = None) -> Collection:
        for number in note_numbers:
            self.note(number)
        with self._db:
            cur = self._db.execute("INSERT INTO collections (name) VALUES (?)", (name,))
            self._db.executemany(
                "INSERT INTO members (collection_id, position, note_id) VALUES (?, ?, ?)",
                [(cur.lastrowid, i, n) for i, n in enumerate(note_numbers)],
            )
        return self.collection(cur.lastrowid)

    def collection(self, number: int) -> Collection:
        row = self._db.execute("SELECT name FROM collections WHERE id = ?", (number,)).fetchone()
        if row is None:
            raise InfospaceError("not_found", f"no collection {collection_id(number)}")
        members = self._db.execute(
            "SELECT note_id FROM members WHERE collection_id = ? ORDER BY position", (number,)
        ).fetchall()
        return Collection(id=collection_id(number), name=row[0], note_ids=tuple(note_id(m[0]) for m in members))

    def collection_notes(self, number: int) -> list[Note]:
        rows = self._db.execute(
            "SELECT n.id, n.name, n.kind, n.body FROM members m JOIN notes n ON n.id = m.note_id"
            " WHERE m.collection_id = ? ORDER BY m.position",
            (number,),
        ).fetchall()
        return [_note(row) for row in rows]

    def append(self, number: int, note_number: int) -> Collection:
        self.collection(number)
        self.note(note_number)
        self._db.execute(
            "INSERT INTO members (collection_id, position, note_id) SELECT ?, COALESCE(MAX(position), -1) + 1, ?"
            " FROM members WHERE collection_id = ?",
            (number, note_number, number),
        )
        return self.collection(number)

    def remove(self, number: int, note_number: int) -> int:
        """Drops every occurrence of the note from the collection; returns how many. The note stays."""
        self.collection(number)
        cur = self._db.execute("DELETE FROM members WHERE collection_id = ? AND note_id = ?", (number, note_number))
        return cur.rowcount

    def search_collections(self, query: str, limit: int) -> list[tuple[Collection, int]]:
        """Collections whose name matches, then those holding the most matching notes; with that count."""
        match = fts_query(query)
        named = self._db.execute(
            "SELECT rowid FROM collections_fts WHERE collections_fts MATCH ? ORDER BY rank", (match,)
        ).fetchall()
        holding = self._db.execute(
            "SELECT m.collection_id, COUNT(*) AS hits FROM notes_fts JOIN members m ON m.note_id = notes_fts.rowid"
            " WHERE notes_fts MATCH ? GROUP BY m.collection_id ORDER BY hits DESC, m.collection_id",
            (match,),
        ).fetchall()
        hits = dict(holding)
        order = [row[0] for row in named] + [cid for cid, _ in holding]
        unique = list(dict.fromkeys(order))[:limit]
        return [(self.collection(cid), hits.get(cid, 0)) for cid in unique]

    # Names

    def set_name(self, kind: str, number: int, name: str) -> None:
        table = "notes" if kind == "note" else "collections"
        self._db.execute(f"UPDATE {table} SET name = ? WHERE id = ?", (name, number))

    def binding(self, name: str) -> str | None:
        row = self._db.execute("SELECT resource_id FROM bindings WHERE name = ?", (name,)).fetchone()
        return row[0] if row else None

    def save_binding(self, name: str, resource_id: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO bindings (name, resource_id) VALUES (?, ?)", (name, resource_id))


def _encode(content: JsonValue) -> tuple[str, str]:
    if content is None:
        raise InfospaceError("bad_value", "a note holds text or a JSON value, not null")
    if isinstance(content, str):
        return "text", content
    return "json", json.dumps(content, ensure_ascii=False)


def _note(row: tuple) -> Note:
    number, name, kind, body = row
    return Note(id=note_id(number), name=name, content=body if kind == "text" else json.loads(body))
