"""Storage primitives: create-note, create-collection, load, save, persist, add, remove, size."""

from __future__ import annotations

from tool_testing import ex, make_executor, run  # noqa: F401 (ex is a fixture)


def test_create_note_text_and_json(ex):
    assert run(ex, "create-note", content="a cave")["resource_id"] == "Note_1"
    made = run(ex, "create-note", content={"block": "iron_ore", "y": 12})
    assert made == {
        "status": "success",
        "data": {"block": "iron_ore", "y": 12},
        "value": 'Note_2: {"block": "iron_ore", "y": 12}',
        "resource_id": "Note_2",
    }
    assert run(ex, "create-note", content=None)["code"] == "bad_args"


def test_create_collection_from_references_then_items(ex):
    run(ex, "create-note", content="old", **{"as": "old"})
    made = run(ex, "create-collection", notes=["$old"], items=["new", {"n": 2}])
    assert made["resource_id"] == "Collection_1"
    assert made["data"] == [
        {"id": "Note_1", "content": "old", "name": "old"},
        {"id": "Note_2", "content": "new"},
        {"id": "Note_3", "content": {"n": 2}},
    ]
    assert made["value"].startswith("Collection_1, 3 notes: Note_1: old; Note_2: new")
    assert run(ex, "create-collection")["data"] == []
    assert run(ex, "create-collection", notes=["Note_99"])["code"] == "not_found"


def test_load_notes_and_collections_with_slices(ex):
    run(ex, "create-collection", items=["a", "b", "c", "d"])
    assert run(ex, "load", target="Note_2")["data"] == "b"
    assert [n["content"] for n in run(ex, "load", target="Collection_1", start=1, end=3)["data"]] == ["b", "c"]
    assert [n["content"] for n in run(ex, "load", target="Collection_1", start=-1)["data"]] == ["d"]
    run(ex, "create-note", content="abcdef")
    assert run(ex, "load", target="Note_5", end=3)["data"] == "abc"
    run(ex, "create-note", content={"k": 1})
    assert run(ex, "load", target="Note_6", start=1)["code"] == "wrong_kind"
    assert run(ex, "load", target="Nope_1")["code"] == "bad_ref"


def test_save_replaces_content_in_place(ex):
    run(ex, "create-collection", items=["draft"])
    saved = run(ex, "save", target="Note_1", content={"final": True})
    assert saved["resource_id"] == "Note_1" and saved["data"] == {"final": True}
    assert run(ex, "load", target="Collection_1")["data"][0]["content"] == {"final": True}
    assert run(ex, "save", target="Collection_1", content="x")["code"] == "wrong_kind"


def test_persist_keeps_a_name_past_the_plan_and_a_reopen(tmp_path):
    path = tmp_path / "infospace.db"
    ex = make_executor(path)
    with ex.plan_scope():
        run(ex, "create-note", content="home base at 0 64 0", **{"as": "home"})
        kept = run(ex, "persist", name="$home")
        assert kept["data"] == {"name": "home", "resource_id": "Note_1"}
        run(ex, "create-note", content="scratch", **{"as": "scratch"})
    assert run(ex, "persist", name="scratch")["code"] == "not_found"
    ex.infospace.close()
    again = make_executor(path)
    assert run(again, "load", target="$home")["data"] == "home base at 0 64 0"
    again.infospace.close()


def test_add_and_remove(ex):
    run(ex, "create-collection", items=["a"], **{"as": "list"})
    run(ex, "create-note", content="b")
    added = run(ex, "add", collection="$list", note="Note_2")
    assert [n["id"] for n in added["data"]] == ["Note_1", "Note_2"]
    removed = run(ex, "remove", collection="$list", note="Note_1")
    assert [n["id"] for n in removed["data"]] == ["Note_2"]
    assert run(ex, "load", target="Note_1")["data"] == "a"
    assert run(ex, "remove", collection="$list", note="Note_1")["code"] == "not_found"
    assert run(ex, "add", collection="Note_2", note="Note_1")["code"] == "wrong_kind"


def test_size_of_each_kind(ex):
    run(ex, "create-collection", items=["abc", [1, 2], {"a": 1, "b": 2, "c": 3}, 7])
    sizes = [run(ex, "size", target=ref)["data"] for ref in ("Collection_1", "Note_1", "Note_2", "Note_3")]
    assert sizes == [4, 3, 2, 3]
    assert run(ex, "size", target="Note_1")["value"] == "Note_1: 3 characters"
    assert run(ex, "size", target="Note_4")["code"] == "wrong_kind"
