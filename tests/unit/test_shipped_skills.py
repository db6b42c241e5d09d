"""The llm and instruction tools skills/ ships, run through the executor on the scripted backend,
and reached by the planner from the catalog it reads."""

from __future__ import annotations

import pytest

from agent.infospace import Infospace
from agent.llm.scripted import ScriptedBackend
from agent.paths import SKILLS_DIR
from agent.planner import Planner, PlannerOptions
from agent.tools import Executor, ToolSource, catalog_text, load_toolbox
from agent.tools.loader import CORE_TOOLS_DIR
from agent.trace import TraceWriter
from support.planning import act, in_field_order, reflect

SCAN = {"sky_visible": False, "free": {"north": 1, "east": 6}, "hazards": ["lava 3 blocks west"]}
SUMMARY = "Open to the east for six blocks; lava three blocks west, and no sky above."


@pytest.fixture
def toolbox():
    box = load_toolbox([ToolSource(label="core", folder=CORE_TOOLS_DIR, required=True),
                        ToolSource(label="skills", folder=SKILLS_DIR, required=True)])
    assert not box.errors, box.errors
    return box


def executor_on(toolbox, backend: ScriptedBackend) -> Executor:
    return Executor(toolbox, Infospace.open(":memory:"), llm=backend)


def test_describe_note_puts_the_note_in_its_prompt_and_keeps_the_reply(toolbox):
    backend = ScriptedBackend([SUMMARY])
    ex = executor_on(toolbox, backend)
    ex.execute_action({"type": "create-note", "content": SCAN, "as": "scan"})
    result = ex.execute_action({"type": "describe-note", "note": "$scan"})
    assert result.ok and result.data == SUMMARY and ex.infospace.note(result.resource_id).content == SUMMARY
    prompt = backend.calls[0].prompt
    assert '"hazards": ["lava 3 blocks west"]' in prompt and "{note:note}" not in prompt
    assert "In at most two sentences" in prompt


def test_describe_note_without_a_note_asks_for_one_and_with_a_bad_one_says_so(toolbox):
    backend = ScriptedBackend([])
    ex = executor_on(toolbox, backend)
    asked = ex.execute_action({"type": "describe-note"})
    assert asked.code == "needs_input" and asked.reason.startswith("Which saved result should be described?")
    missing = ex.execute_action({"type": "describe-note", "note": "Note_9"})
    assert missing.code == "not_found" and backend.calls == []


def test_the_instruction_is_the_text_whole(toolbox):
    ex = executor_on(toolbox, ScriptedBackend([]))
    result = ex.execute_action({"type": "pit-and-cave-safety"})
    assert result.ok and result.value == toolbox.tools["pit-and-cave-safety"].body
    assert "Never dig the block under the bot" in result.value


def test_the_planner_shows_the_instruction_as_guidance_and_uses_describe_note(toolbox, tmp_path):
    script = [*act("describe-note", {"note": "Note_1"}), SUMMARY, *reflect(done=True)]
    backend = ScriptedBackend(in_field_order(script))
    planner = Planner(backend, toolbox, PlannerOptions(max_steps=3), TraceWriter(tmp_path / "trace.jsonl"))
    ex = Executor(toolbox, Infospace.open(":memory:"), llm=backend, method_runner=planner, subplanner=planner)
    ex.infospace.store.create_note(SCAN)
    assert "describe-note" in catalog_text(toolbox) and "pit-and-cave-safety" in catalog_text(toolbox)
    planner.run("get out of this cave: describe the saved scan of it", ex)
    assert [(r.tool, r.status) for r in ex.records] == [("describe-note", "success")]
    first = backend.calls[0].prompt
    assert "GUIDANCE (pit-and-cave-safety):" in first and "Never dig the block under the bot" in first
    assert all("pit-and-cave-safety" not in (c.choices or []) for c in backend.calls)
    assert SUMMARY in backend.calls[-1].prompt
