"""The SQLite store: notes, collections, FTS5 search, and persistence across a reopen."""

from __future__ import annotations

import pytest

from agent.infospace import InfospaceError
from agent.infospace.store import Store, fts_query


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "space" / "infospace.db")
    yield s
    s.close()


def test_notes_keep_text_and_json_apart(store):
    text = store.create_note("iron at 12 40 -3")
    data = store.create_note({"block": "iron_ore", "y": 40}, name="iron")
    json_text = store.create_note('{"looks": "like json"}')
    assert (text.id, data.id) == ("Note_1", "Note_2")
    assert store.note(2).content == {"block": "iron_ore", "y": 40} and store.note(2).name == "iron"
    assert store.note(3).content == json_text.content and store.note(3).is_text


def test_missing_note_and_null_content_are_clear_errors(store):
    with pytest.raises(InfospaceError, match="no note Note_9") as e:
        store.note(9)
    assert e.value.code == "not_found"
    with pytest.raises(InfospaceError, match="not null"):
        store.create_note(None)


def test_collections_keep_order_and_duplicates(store):
    a, b = store.create_note("a"), store.create_note("b")
    c = store.create_collection([2, 1, 2], name="mixed")
    assert c.id == "Collection_1" and c.note_ids == ("Note_2", "Note_1", "Note_2")
    assert store.append(1, 1).note_ids == ("Note_2", "Note_1", "Note_2", "Note_1")
    assert store.remove(1, 2) == 2
    assert [n.content for n in store.collection_notes(1)] == ["a", "a"]
    assert (a.content, b.content) == ("a", "b")


def test_everything_survives_a_reopen(tmp_path):
    path = tmp_path / "infospace.db"
    first = Store(path)
    first.create_note({"kind": "ore", "name": "diamond"})
    first.create_note("a cave entrance near spawn")
    first.create_collection([1, 2], name="finds")
    first.save_binding("finds", "Collection_1")
    first.close()

    again = Store(path)
    assert again.note(1).content == {"kind": "ore", "name": "diamond"}
    assert again.collection(1).note_ids == ("Note_1", "Note_2")
    assert again.binding("finds") == "Collection_1"
    assert [n.id for n in again.search_notes("cave", 5)] == ["Note_2"]
    assert again.create_note("next").id == "Note_3"
    again.close()


def test_database_uses_wal(store, tmp_path):
    mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_fts_finds_text_and_json_words_best_first(store):
    store.create_note("iron ore here, and iron again: iron")
    store.create_note({"block": "iron_ore", "note": "one iron"})
    store.create_note("only coal")
    hits = store.search_notes("iron", 10)
    assert [n.id for n in hits][0] == "Note_1" and {n.id for n in hits} == {"Note_1", "Note_2"}
    assert store.search_notes("coal", 10)[0].content == "only coal"
    assert store.search_notes("gold", 10) == []


def test_fts_sees_updates_and_all_words_must_match(store):
    store.create_note("red stone")
    store.update_note(1, "blue stone")
    assert store.search_notes("red", 5) == [] and len(store.search_notes("blue stone", 5)) == 1
    assert store.search_notes("blue lava", 5) == []


def test_search_within_a_collection_and_over_collections(store):
    for text in ("lava lake", "lava pool", "water"):
        store.create_note(text)
    store.create_collection([1, 3], name="east side")
    store.create_collection([2], name="lava finds")
    assert [n.id for n in store.search_notes("lava", 10, within=1)] == ["Note_1"]
    found = store.search_collections("lava", 10)
    assert [(c.id, hits) for c, hits in found] == [("Collection_2", 1), ("Collection_1", 1)]
    assert [c.name for c, _ in store.search_collections("east", 10)] == ["east side"]


@pytest.mark.parametrize("query", ['iron "ore', "NOT AND (", "a*b-c", "col:umn ^x"])
def test_any_query_text_is_a_valid_fts_query(store, query):
    store.create_note("iron ore a b c col umn x")
    assert isinstance(store.search_notes(query, 5), list)


def test_a_query_without_words_is_a_clear_error():
    with pytest.raises(InfospaceError, match="no words") as e:
        fts_query("?! --")
    assert e.value.code == "bad_value"
