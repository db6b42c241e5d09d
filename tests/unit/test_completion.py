"""Is-complete (agent/tools/completion.py): a tool's own check turns a success that did not
achieve its step into failed, code incomplete; bad checks are load errors; the planner reads
an incomplete result as the failure it is."""

from __future__ import annotations

import pytest

from agent.infospace import Infospace
from agent.llm.scripted import ScriptedBackend
from agent.planner import Planner, PlannerOptions
from agent.tools import Executor, ToolResult, load_toolbox
from agent.tools.completion import judged
from agent.tools.frontmatter import ToolFileError, parse_skill
from agent.tools.schema import JsonSchema
from agent.trace import TraceWriter
from support.planning import act, in_field_order, reflect
from tool_testing import FIXTURES, fixture_toolbox, run

SLOT_TOOLS = FIXTURES / "slots"


@pytest.fixture
def ex():
    executor = Executor(fixture_toolbox(SLOT_TOOLS), Infospace.open(":memory:"))
    executor.heard("bedrock stone")
    yield executor
    executor.infospace.close()


def test_a_false_check_makes_a_success_incomplete_and_keeps_the_data(ex):
    result = run(ex, "pick-block", block="bedrock")
    assert (result["status"], result["code"]) == ("failed", "incomplete")
    assert result["reason"].startswith('incomplete: expected data.done and (args.side == null or data.side == args.side) '
                                       "is false; the tool said: ")
    assert result["data"] == {"block": "bedrock", "side": "near", "done": False}
    assert ex.records[-1].code == "incomplete"


def test_the_check_reads_the_arguments(ex):
    assert run(ex, "pick-block", block="stone", side="near")["status"] == "success"
    assert run(ex, "pick-block", block="stone", side="far")["code"] == "incomplete"


def test_arguments_not_given_are_their_default_else_null():
    schema = JsonSchema.model_validate({"type": "object", "properties": {
        "blocks": {"type": "integer", "default": 1}, "item": {"type": "string"}}})
    done = ToolResult.success({"climbed": 1})
    assert judged("data.climbed >= args.blocks and args.item == null", schema, {}, done) is done
    assert judged("data.climbed >= args.blocks", schema, {"blocks": 2}, done).code == "incomplete"


def test_a_check_that_cannot_be_answered_is_incomplete():
    result = judged("data.gone", None, {}, ToolResult.success({"block": "stone"}))
    assert result.code == "incomplete" and "data.gone could not be judged" in result.reason


def test_a_failure_is_left_as_it_is():
    failed = ToolResult.failure("collision", "hit a wall")
    assert judged("data.gone", None, {}, failed) is failed


def skill(tmp_path, frontmatter: str):
    folder = tmp_path / "probe"
    folder.mkdir()
    path = folder / "Skill.md"
    path.write_text(f"---\nname: probe\ntype: llm\ndescription: d\n{frontmatter}\n---\n\nSay {{x}}.\n")
    return path


@pytest.mark.parametrize(("frontmatter", "message"), [
    ("complete_when: data.gone = 1", "complete_when: use '==' to compare, not '=' at column 11"),
    ("complete_when: 'result.ok'", "complete_when: unknown name 'result'"),
    ("slots: [{name: x, type: str}]\ncomplete_when: args.y == 1",
     "complete_when reads args.y, which the tool does not take (arguments: x)"),
])
def test_a_bad_check_is_one_load_error_on_its_line(tmp_path, frontmatter, message):
    path = skill(tmp_path, frontmatter)
    with pytest.raises(ToolFileError) as caught:
        parse_skill(path.read_text(), path, "skills")
    line = 5 + frontmatter.count("\n")  # complete_when's own line
    assert message in str(caught.value) and str(caught.value).startswith(f"{path}:{line}: ")


def test_the_planner_reads_incomplete_as_a_failure(tmp_path):
    script = [*act("pick-block", {"block": "bedrock"}), *reflect(next_task="try stone"),
              *act("pick-block", {"block": "stone"}), *reflect(done=True)]
    backend = ScriptedBackend(in_field_order(script))
    toolbox = fixture_toolbox(SLOT_TOOLS)
    planner = Planner(backend, toolbox, PlannerOptions(tools=["pick-block", "think"], max_steps=3),
                      TraceWriter(tmp_path / "trace.jsonl"))
    executor = Executor(toolbox, Infospace.open(":memory:"), llm=backend, method_runner=planner, subplanner=planner)
    planner.run("pick bedrock, else stone", executor)
    shown = [call.prompt for call in backend.calls][-1]
    assert "failed (incomplete): incomplete: expected data.done" in shown
    assert [(r.tool, r.code) for r in executor.records] == [("pick-block", "incomplete"), ("pick-block", None)]


def test_the_method_runtime_branches_on_incomplete_as_on_any_failure(tmp_path):
    backend = ScriptedBackend([])  # every decision here is the protocol's or the runtime's
    toolbox = fixture_toolbox(SLOT_TOOLS)
    planner = Planner(backend, toolbox, PlannerOptions(), TraceWriter(tmp_path / "trace.jsonl"))
    executor = Executor(toolbox, Infospace.open(":memory:"), llm=backend, method_runner=planner, subplanner=planner)
    executor.heard("bedrock")
    result = executor.execute_action({"type": "pick-or-give-up"})
    assert not result.ok and result.data["outcome"] == "FAILED", result
    assert [(r.tool, r.code) for r in executor.records][0] == ("pick-block", "incomplete")
