"""Computation primitives: apply and map run tools through the executor; coerce converts."""

from __future__ import annotations

import pytest

from tool_testing import ex, run  # noqa: F401 (ex is a fixture)


def test_apply_passes_the_content_to_the_tool(ex):
    run(ex, "create-note", content="hello")
    applied = run(ex, "apply", tool="echo-args", target="Note_1", args={"count": 3})
    assert applied["data"] == {"input_value": "hello", "count": 3}
    assert [r.tool for r in ex.records][-2:] == ["echo-args", "apply"] and ex.records[-2].depth == 1


def test_apply_on_a_collection_passes_the_list_or_the_reference(ex):
    run(ex, "create-collection", items=["a", "b"])
    assert run(ex, "apply", tool="size", target="Collection_1", arg="target", by_reference=True)["data"] == 2
    listed = run(ex, "apply", tool="create-note", target="Collection_1", arg="content")
    assert listed["data"] == ["a", "b"]


def test_apply_reports_the_inner_failure(ex):
    run(ex, "create-note", content="x")
    assert run(ex, "apply", tool="boom", target="Note_1")["reason"] == "RuntimeError: kaput"


def test_map_runs_the_tool_on_every_note_in_order(ex):
    run(ex, "create-collection", items=["1", "2.5", "40"])
    mapped = run(
        ex, "map", tool="coerce", collection="Collection_1", arg="target", args={"to": "number"}, by_reference=True
    )
    assert [n["content"] for n in mapped["data"]] == [1, 2.5, 40]
    assert mapped["resource_id"] == "Collection_2"
    echoed = run(ex, "map", tool="echo-args", collection="Collection_1")
    assert [n["content"]["input_value"] for n in echoed["data"]] == ["1", "2.5", "40"]


def test_map_stops_at_the_first_failure_naming_the_note(ex):
    run(ex, "create-collection", items=["a", {"not": "text"}, "c"])
    failed = run(ex, "map", tool="say", collection="Collection_1", arg="message")
    assert failed["code"] == "bad_args"
    assert failed["reason"].startswith("map stopped at Note_2 (note 2 of 3): say: argument 'message'")
    assert run(ex, "map", tool="mining-tips", collection="Note_1")["code"] == "wrong_kind"


@pytest.mark.parametrize(
    ("content", "to", "expected"),
    [
        ({"a": 1}, "text", '{"a": 1}'),
        ('{"a": [1, 2]}', "json", {"a": [1, 2]}),
        (" 42 ", "number", 42),
        ("-2.5", "number", -2.5),
        ("7.0", "integer", 7),
        ("Yes", "boolean", True),
        ("0", "boolean", False),
        ("one\n\n two \n", "list", ["one", "two"]),
        ({"a": 1, "b": 2}, "list", [1, 2]),
        ("same", "text", "same"),
    ],
)
def test_coerce_converts_into_a_new_note(ex, content, to, expected):
    run(ex, "create-note", content=content)
    coerced = run(ex, "coerce", target="Note_1", to=to)
    assert coerced["data"] == expected and coerced["resource_id"] == "Note_2"


@pytest.mark.parametrize(
    ("content", "to", "reason"),
    [
        ("not json", "json", "cannot coerce Note_1 to json"),
        ("null", "json", "JSON null"),
        ("abc", "number", "cannot coerce Note_1 to number"),
        ("2.5", "integer", "2.5 is not a whole number"),
        ("maybe", "boolean", "expected one of"),
        (True, "number", "expected a number or numeric text"),
    ],
)
def test_coerce_failures_say_why(ex, content, to, reason):
    run(ex, "create-note", content=content)
    failed = run(ex, "coerce", target="Note_1", to=to)
    assert failed["code"] == "bad_value" and reason in failed["reason"]
    assert run(ex, "coerce", target="Note_1", to="xml")["code"] == "bad_args"
