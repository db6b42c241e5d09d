"""The uniform return: the seed's exact dict shapes, and reading back what python tools return."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from agent.tools import ToolFailure, ToolResult
from agent.infospace.errors import InfospaceCode
from agent.tools.result import FAILURE_CODES, VALUE_LIMIT
from agent.tools.runners import read_return


def test_success_shape():
    assert ToolResult.success({"x": 1}).as_dict() == {"status": "success", "data": {"x": 1}, "value": '{"x": 1}'}
    assert ToolResult.success("hi", resource_id="Note_3").as_dict() == {
        "status": "success",
        "data": "hi",
        "value": "hi",
        "resource_id": "Note_3",
    }
    assert ToolResult.success().as_dict() == {"status": "success", "data": None, "value": ""}


def test_failure_shape_has_reason_and_code():
    assert ToolResult.failure("not_found", "no note Note_9").as_dict() == {
        "status": "failed",
        "data": "no note Note_9",
        "value": "no note Note_9",
        "reason": "no note Note_9",
        "code": "not_found",
    }
    assert ToolResult.failure("bad_value", "odd", data={"partial": 1}).data == {"partial": 1}


def test_value_is_truncated_but_data_is_whole():
    result = ToolResult.success("x" * (VALUE_LIMIT + 50))
    assert len(result.data) == VALUE_LIMIT + 50
    assert result.value.endswith("… (50 more chars)") and len(result.value) < VALUE_LIMIT + 30


@pytest.mark.parametrize(
    "fields",
    [
        {"status": "failed"},
        {"status": "success", "reason": "why"},
        {"status": "success", "code": "bad_args"},
        {"status": "done", "reason": "x"},
        {"status": "failed", "reason": "x", "extra": 1},
        {"status": "failed", "reason": "x", "code": "made_up"},
    ],
)
def test_inconsistent_results_are_rejected(fields):
    with pytest.raises(ValidationError):
        ToolResult.model_validate(fields)


def test_reading_back_what_python_tools_return():
    assert read_return(None).as_dict() == {"status": "success", "data": None, "value": ""}
    assert read_return([1, 2]).data == [1, 2]
    assert read_return({"no": "status"}).data == {"no": "status"}
    seed_failure = read_return({"status": "failed", "reason": "executor not available", "value": None})
    assert (seed_failure.reason, seed_failure.code) == ("executor not available", "tool_failed")
    assert read_return({"status": "failed", "reason": "r", "code": "not_found"}).code == "not_found"
    assert read_return({"status": "failed", "code": "nonsense"}).code == "tool_failed"
    success = read_return({"status": "success", "data": 3, "value": 3, "resource_id": "Note_1"})
    assert (success.value, success.resource_id) == ("3", "Note_1")
    kept = ToolResult.success(1)
    assert read_return(kept) is kept


@pytest.mark.parametrize(
    ("returned", "message"),
    [({"status": "ok"}, "status 'ok'"), ({"status": "success", "payload": 1}, "unknown key 'payload'")],
)
def test_malformed_uniform_dicts_are_bad_returns(returned, message):
    with pytest.raises(ToolFailure, match=message) as e:
        read_return(returned)
    assert e.value.code == "bad_return"


def test_every_infospace_code_is_a_failure_code():
    assert set(InfospaceCode.__args__) <= set(FAILURE_CODES)
