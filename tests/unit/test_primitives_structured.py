"""Structured primitives over JSON notes: filter-structured, project, pluck, sort, head, join, index."""

from __future__ import annotations

import pytest

from tool_testing import make_executor, run

BLOCKS = [
    {"name": "iron_ore", "kind": "ore", "year": 2021, "pos": {"y": 12}},
    {"name": "stone", "kind": "rock", "year": 2019, "pos": {"y": 60}},
    {"name": "diamond_ore", "kind": "ore", "year": 2023, "pos": {"y": -50}},
    "a text note",
]


@pytest.fixture
def ex():
    executor = make_executor()
    run(executor, "create-collection", items=BLOCKS, **{"as": "blocks"})
    yield executor
    executor.infospace.close()


def contents(result: dict) -> list:
    return [item["content"] for item in result["data"]]


def test_filter_structured_with_a_where_expression(ex):
    kept = run(ex, "filter-structured", target="$blocks", where='data.year >= 2020 AND data.kind == "ore"')
    assert [item["id"] for item in kept["data"]] == ["Note_1", "Note_3"]
    assert run(ex, "filter-structured", target="$blocks", where='data contains "text"')["data"][0]["id"] == "Note_4"
    bad = run(ex, "filter-structured", target="$blocks", where="data.year >>= 1")
    assert bad["code"] == "bad_value" and "column" in bad["reason"]


def test_project_keeps_only_the_named_fields(ex):
    projected = run(ex, "project", target="$blocks", fields=["data.name", "data.pos.y"])
    assert contents(projected)[:2] == [{"name": "iron_ore", "pos.y": 12}, {"name": "stone", "pos.y": 60}]
    assert contents(projected)[3] == {"name": None, "pos.y": None}
    single = run(ex, "project", target="Note_2", fields=["data.kind", "id"])
    assert single["data"] == {"kind": "rock", "id": "Note_2"} and single["resource_id"].startswith("Note_")
    assert run(ex, "project", target="$blocks", fields=["kind"])["code"] == "bad_value"


def test_pluck_lists_one_field(ex):
    plucked = run(ex, "pluck", target="$blocks", field="data.pos.y")
    assert plucked["data"] == [12, 60, -50] and plucked["resource_id"] == "Note_5"


def test_sort_by_a_field_with_missing_values_last(ex):
    assert [i["id"] for i in run(ex, "sort", target="$blocks", by="data.pos.y")["data"]] == [
        "Note_3", "Note_1", "Note_2", "Note_4"
    ]
    descending = run(ex, "sort", target="$blocks", by="data.name", descending=True)
    assert [i["id"] for i in descending["data"]] == ["Note_2", "Note_1", "Note_3", "Note_4"]


def test_sort_puts_numbers_before_text(ex):
    run(ex, "create-collection", items=[{"v": "b"}, {"v": 3}, {"v": "a"}, {"v": 1}], **{"as": "mixed"})
    assert [c["v"] for c in contents(run(ex, "sort", target="$mixed", by="data.v"))] == [1, 3, "a", "b"]


def test_head_takes_the_first_n(ex):
    assert [i["id"] for i in run(ex, "head", target="$blocks", n=2)["data"]] == ["Note_1", "Note_2"]
    assert run(ex, "head", target="$blocks", n=0)["data"] == []
    assert run(ex, "head", target="$blocks", n=-1)["code"] == "bad_args"


def test_join_merges_matching_notes(ex):
    run(ex, "create-collection", items=[{"kind": "ore", "tool": "pickaxe"}, {"kind": "wood", "tool": "axe"}],
        **{"as": "tools"})
    joined = run(ex, "join", left="$blocks", right="$tools", on="data.kind")
    assert [(c["name"], c["tool"]) for c in contents(joined)] == [("iron_ore", "pickaxe"), ("diamond_ore", "pickaxe")]
    run(ex, "create-collection", items=[{"label": "stone", "kind": "clash"}], **{"as": "labels"})
    renamed = contents(run(ex, "join", left="$blocks", right="$labels", on="data.name", right_on="data.label"))
    assert renamed == [{"label": "stone", "kind": "rock", "name": "stone", "year": 2019, "pos": {"y": 60}}]


def test_join_wraps_non_objects(ex):
    run(ex, "create-collection", items=["a text note"], **{"as": "texts"})
    joined = run(ex, "join", left="$texts", right="$blocks", on="data")
    assert contents(joined) == [{"content": "a text note"}]


def test_index_groups_note_ids_by_a_field(ex):
    indexed = run(ex, "index", target="$blocks", by="data.kind")
    assert indexed["data"] == {"ore": ["Note_1", "Note_3"], "rock": ["Note_2"]}
    assert run(ex, "index", target="$blocks", by="data.year")["data"] == {
        "2021": ["Note_1"], "2019": ["Note_2"], "2023": ["Note_3"]
    }


def test_structured_operations_need_a_collection(ex):
    for tool, args in [("pluck", {"field": "data"}), ("sort", {"by": "id"}), ("index", {"by": "id"})]:
        assert run(ex, tool, target="Note_1", **args)["code"] == "wrong_kind"
