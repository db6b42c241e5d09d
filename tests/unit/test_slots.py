"""Slot semantics before a call (agent/tools/slots.py): a missing required value asks with the
slot's prompt, an enum is enforced and offered to decoding, an unverified value waits for the
world or the user to confirm it."""

from __future__ import annotations

import pytest

from agent.infospace import Infospace
from agent.planner.args import decoding_schema
from agent.tools import Executor, ToolResult
from tool_testing import FIXTURES, fixture_toolbox, run

SLOT_TOOLS = FIXTURES / "slots"


@pytest.fixture
def ex():
    executor = Executor(fixture_toolbox(SLOT_TOOLS), Infospace.open(":memory:"))
    yield executor
    executor.infospace.close()


def test_a_missing_required_slot_asks_with_its_prompt_and_calls_nothing(ex):
    result = run(ex, "pick-block", side="near")
    assert (result["status"], result["code"], result["reason"]) == ("failed", "needs_input", "Which block? Scan around first.")
    assert [r.tool for r in ex.records] == ["pick-block"] and ex.infospace.store.search_notes("near", 5) == []


def test_a_schema_hint_tool_asks_with_the_argument_description(ex):
    result = run(ex, "create-note")
    assert result["code"] == "needs_input"
    assert result["reason"].startswith("create-note needs a value for 'content': the text or JSON")


def test_an_enum_is_enforced_and_offered_to_constrained_decoding(ex):
    ex.heard("pick stone")
    result = run(ex, "pick-block", block="stone", side="middle")
    assert result["code"] == "bad_args" and 'expected one of "near", "far", got "middle"' in result["reason"]
    schema = decoding_schema(ex.toolbox.tools["pick-block"].schema_hint)
    assert schema["properties"]["side"]["enum"] == ["near", "far"] and schema["required"] == ["block"]


def test_an_unverified_value_waits_until_the_world_shows_it(ex):
    refused = run(ex, "pick-block", block="diamond_ore")
    assert refused["code"] == "needs_input"
    assert refused["reason"].startswith('pick-block: block="diamond_ore" is not confirmed; use a value an earlier result')
    ex.evidence.saw(ToolResult.success({"blocks": {"diamond_ore": 2, "stone": 40}}))  # as a scan would show it
    assert run(ex, "pick-block", block="diamond_ore")["status"] == "success"


def test_the_users_words_confirm_a_value(ex):
    ex.heard("Mine the Coal_Ore to the north")
    assert run(ex, "pick-block", block="coal_ore")["status"] == "success"


@pytest.mark.parametrize(("seen", "value", "confirmed"), [
    ({"held": "stone_pickaxe"}, "stone", False),  # a whole value, not part of a name
    ({"held": "stone_pickaxe"}, "stone_pickaxe", True),
    ({"y": 12.5}, "12", False),
    ({"y": 3}, "3", True),
    ("iron-ore here", "iron", False),
])
def test_only_a_whole_value_confirms(ex, seen, value, confirmed):
    ex.evidence.saw(ToolResult.success(seen))
    assert (run(ex, "pick-block", block=value).get("code") != "needs_input") is confirmed


def test_what_a_primitive_or_the_model_wrote_confirms_nothing(ex):
    assert run(ex, "create-note", content="diamond_ore")["status"] == "success"  # the model's own words
    assert run(ex, "pick-block", block="diamond_ore")["code"] == "needs_input"


def test_a_python_tools_result_is_evidence(ex):
    ex.heard("bedrock")
    run(ex, "pick-block", block="bedrock")  # its data names bedrock, and "near"
    assert run(ex, "pick-block", block="near")["status"] == "success"
