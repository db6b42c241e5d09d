"""Search primitives (FTS5) and communication primitives (say, think)."""

from __future__ import annotations

import pytest

from tool_testing import make_executor, run


@pytest.fixture
def ex():
    executor = make_executor()
    run(executor, "create-collection", items=["lava lake to the east", {"block": "lava", "y": 11}], **{"as": "east"})
    run(executor, "create-collection", items=["a quiet meadow", "lava pool near spawn"], **{"as": "spawn_area"})
    yield executor
    executor.infospace.close()


def ids(result: dict) -> list[str]:
    return [item["id"] for item in result["data"]]


def test_search_notes_finds_text_and_json_as_a_new_collection(ex):
    found = run(ex, "search-notes", query="lava")
    assert sorted(ids(found)) == ["Note_1", "Note_2", "Note_4"] and found["resource_id"] == "Collection_3"
    assert ids(run(ex, "search-notes", query="lava spawn")) == ["Note_4"]
    assert len(run(ex, "search-notes", query="lava", limit=1)["data"]) == 1
    assert run(ex, "search-notes", query="...")["code"] == "bad_value"
    assert run(ex, "search-notes", query="lava", limit=0)["code"] == "bad_args"


def test_search_collections_by_name_and_by_contents(ex):
    assert run(ex, "search-collections", query="lava")["data"] == [
        {"id": "Collection_1", "name": "east", "size": 2, "matching_notes": 2},
        {"id": "Collection_2", "name": "spawn_area", "size": 2, "matching_notes": 1},
    ]
    assert [c["id"] for c in run(ex, "search-collections", query="spawn area")["data"]] == ["Collection_2"]
    missing = run(ex, "search-collections", query="diamonds")
    assert missing["data"] == [] and missing["value"] == "no collection matches 'diamonds'"


def test_search_within_collection(ex):
    assert ids(run(ex, "search-within-collection", collection="$east", query="lava")) in (
        ["Note_1", "Note_2"], ["Note_2", "Note_1"]
    )
    assert ids(run(ex, "search-within-collection", collection="Collection_2", query="meadow")) == ["Note_3"]
    assert run(ex, "search-within-collection", collection="Note_1", query="x")["code"] == "wrong_kind"


def test_say_and_think():
    heard = []
    ex = make_executor(on_say=heard.append)
    said = run(ex, "say", message="found iron")
    assert said == {"status": "success", "data": "found iron", "value": "said: found iron"}
    assert run(ex, "think", thought="dig down next") == {
        "status": "success", "data": "dig down next", "value": "thought: dig down next"
    }
    assert heard == ["found iron"]
    assert [r.tool for r in ex.records] == ["say", "think"]
