"""Method tools as bounded inner loops: protocol injection, constrained NEXT_TASK, outcomes,
the step limit, no recursion, and the _inner_loop metadata on every inner action."""

from __future__ import annotations

import pytest

from agent.trace.schema import MethodEnd, MethodStep, OuterStep
from agent.planner.branches import decide
from agent.planner.labels import task_labels
from agent.planner.scope import Scope
from agent.tools import ToolResult
from agent.planner.method import method_tools
from agent.tools import ToolSource, load_toolbox
from agent.tools.loader import CORE_TOOLS_DIR
from support.planning import PLANNER_TOOLS, act, asked_field, inner, measure_then, planner_toolbox, reflect, rig

PATROL_LABELS = [
    "[METHOD: STEP 1] MEASURE",
    "[METHOD: STEP 2] DECIDE",
    "TERMINATION (DISCOVERY)",
    "TERMINATION (FAILED)",
    "TERMINATION (INAPPLICABLE)",
]


def inner_steps(r) -> list[MethodStep]:
    return [rec for rec in r.trace.events if isinstance(rec, MethodStep)]


def outer_steps(r) -> list[OuterStep]:
    return [rec for rec in r.trace.events if isinstance(rec, OuterStep)]


def after(protocol, task: str):
    """What may follow `task` after a result that no condition reads."""
    return decide(protocol, task, Scope("t", {}, ToolResult.success("x"), {}, lambda: None))


def test_next_task_choices_are_the_declared_steps_and_outcomes():
    box = planner_toolbox()
    protocol = box.tools["patrol"].protocol
    assert task_labels(protocol) == PATROL_LABELS
    # A step that goes on unconditionally ("Proceed to STEP 2."): there is no choice to ask for.
    assert (after(protocol, PATROL_LABELS[0]).decided, after(protocol, PATROL_LABELS[0]).decider) == (
        PATROL_LABELS[1], "forced")
    # A step whose conditions are prose, as the seed writes them: the steps it names and every
    # outcome, for the model to judge.
    assert after(protocol, PATROL_LABELS[1]).choices == [PATROL_LABELS[0], *PATROL_LABELS[2:]]
    assert method_tools(box.tools["patrol"], box) == ["measure", "think"]


def test_the_protocol_text_is_in_the_prompt_when_the_method_starts():
    r = rig([*act("patrol"), *measure_then("TERMINATION (DISCOVERY)"), *reflect(done=True)])
    r.run()
    body = r.planner.toolbox.tools["patrol"].body.strip()
    first_inner = r.backend.calls[2]  # patrol takes no arguments: THOUGHTS and TOOL_NAME were the outer step's
    assert body in first_inner.prompt
    assert "#METHOD START: patrol {} (at most 5 internal steps)" in first_inner.prompt
    assert first_inner.prompt.rstrip().endswith("ASSISTANT:THOUGHTS:")
    assert "CURRENT METHOD STEP: [METHOD: STEP 1] MEASURE" in first_inner.prompt


def test_each_iteration_shows_the_current_step_and_constrains_tools_and_next_task():
    r = rig([*act("patrol"), *measure_then("TERMINATION (DISCOVERY)"), *reflect(done=True)])
    r.run()
    calls = r.backend.calls
    # Each step calls one tool, so no TOOL_NAME is asked; the model writes THOUGHTS and arguments
    # (the protocol writes none). STEP 1 goes on to STEP 2 unconditionally; STEP 2's NEXT_TASK
    # is chosen among where its branches lead.
    assert [asked_field(c) for c in calls[2:7]] == ["thoughts", "args", "thoughts", "args", "next"]
    assert "CURRENT METHOD STEP: [METHOD: STEP 2] DECIDE" in calls[4].prompt
    assert calls[5].prompt.endswith("TOOL_NAME: think\nTOOL_ARGS_JSON: ")
    assert calls[6].kind == "select" and calls[6].choices == [PATROL_LABELS[0], *PATROL_LABELS[2:]]
    assert [(s.decided.tool, s.decided.args, s.decided.next) for s in inner_steps(r)] == [
        ("forced", "model", "forced"), ("forced", "model", "model")]


def test_a_step_that_calls_no_tool_offers_the_whole_protocols_tools(tmp_path):
    folder = tmp_path / "wander"
    folder.mkdir()
    (folder / "Skill.md").write_text(
        "---\nname: wander\ntype: method\ndescription: d\n---\n#PURPOSE:\nx\n#MAIN PROTOCOL LOOP\n"
        "STEP 1 — LOOK\n- Call `measure`.\nSTEP 2 — PONDER\n- Decide where to go.\n"
        "#TERMINATION CONDITIONS\nSUCCESS:\n- done\n"
    )
    box = load_toolbox([ToolSource(label="core", folder=CORE_TOOLS_DIR),
                        ToolSource(label="skills", folder=PLANNER_TOOLS), ToolSource(label="more", folder=tmp_path)])
    assert method_tools(box.tools["wander"], box, "[METHOD: STEP 1] LOOK") == ["measure"]
    assert method_tools(box.tools["wander"], box, "[METHOD: STEP 2] PONDER") == ["measure"]
    # A step that names no step to go to may go to any.
    protocol = box.tools["wander"].protocol
    assert after(protocol, "[METHOD: STEP 2] PONDER").choices == task_labels(protocol)


@pytest.mark.parametrize(
    ("label", "status", "code"),
    [("TERMINATION (DISCOVERY)", "success", None), ("TERMINATION (FAILED)", "failed", "tool_failed"),
     ("TERMINATION (INAPPLICABLE)", "failed", "tool_failed")],
)
def test_termination_outcomes_are_parsed_and_summarised_for_the_outer_loop(label, status, code):
    outcome = label[len("TERMINATION ("):-1]
    r = rig([*act("patrol"), *measure_then(label), *reflect(done=True)])
    r.run()
    [method_step] = outer_steps(r)
    assert method_step.result["status"] == status and method_step.result.get("code") == code
    summary = f"{outcome} | Method patrol ended in {outcome} after 2 internal steps; last: think success"
    shown = method_step.result["value"] if status == "success" else method_step.result["reason"]
    assert shown == summary
    assert f"ACTUAL RESULT (ground truth) <<\n{status}" in r.backend.calls[-2].prompt
    assert summary in r.backend.calls[-2].prompt
    [ended] = [rec for rec in r.trace.events if isinstance(rec, MethodEnd)]
    assert (ended.method, ended.outcome, ended.inner_steps) == ("patrol", outcome, 2)


def test_a_free_written_next_task_matches_by_its_step_number_or_outcome():
    script = [*act("patrol"), *inner("measure", {"distance": 1}, "[METHOD: STEP 2] think it over"),
              *inner("think", {}, "proceed to TERMINATION (discovery) now"), *reflect(done=True)]
    r = rig(script, constrained=False)
    r.run()
    assert [s.next_task for s in inner_steps(r)] == ["[METHOD: STEP 2] DECIDE", "TERMINATION (DISCOVERY)"]


def test_the_inner_loop_stops_at_the_methods_own_max_steps():
    loop = [*inner("measure", {"distance": 1}, "[METHOD: STEP 2]"), *inner("think", {}, "[METHOD: STEP 1]")]
    r = rig([*act("patrol"), *loop * 2, *loop[:4], *reflect(done=True)])
    r.run()
    assert [s.inner_loop.inner_step for s in inner_steps(r)] == [1, 2, 3, 4, 5]
    [method_step] = outer_steps(r)
    assert method_step.result["reason"] == "FAILED | Method patrol exceeded max_steps"
    assert method_step.result["data"] == {"outcome": "FAILED", "inner_steps": 5, "max_steps": 5}
    [ended] = [rec for rec in r.trace.events if isinstance(rec, MethodEnd)]
    assert (ended.outcome, ended.inner_steps) == ("FAILED", 5)
    assert ended.summary == "FAILED | Method patrol exceeded max_steps"


def test_method_max_steps_overrides_every_bound():
    loop = inner("think", {}, "[METHOD: STEP 1]")
    r = rig([*act("sweep"), *loop * 2, *reflect(done=True)], method_max_steps=2)
    r.run()
    assert len(inner_steps(r)) == 2
    assert outer_steps(r)[0].result["reason"] == "FAILED | Method sweep exceeded max_steps"


def test_a_method_without_max_steps_gets_the_default_bound():
    # Each thought differs, or the loop watch would end the method first.
    notes = [reply for n in range(24) for reply in inner("think", {"thought": f"note {n}"}, "[METHOD: STEP 1]")]
    r = rig([*act("sweep"), *notes, *reflect(done=True)])
    r.run()
    assert inner_steps(r)[-1].inner_loop.max_steps == 24 and len(inner_steps(r)) == 24


def test_every_inner_action_carries_the_inner_loop_metadata():
    r = rig([*act("think", {"thought": "first"}), *reflect(),
             *act("patrol"), *measure_then("TERMINATION (DISCOVERY)"), *reflect(done=True)])
    r.run()
    metas = [s.action["_inner_loop"] for s in inner_steps(r)]
    assert metas == [
        {"method_name": "patrol", "inner_step": 1, "max_steps": 5, "outer_step": 2},
        {"method_name": "patrol", "inner_step": 2, "max_steps": 5, "outer_step": 2},
    ]
    assert all("_inner_loop" not in s.action for s in outer_steps(r))
    # The metadata is the planner's: the tool itself never sees it as an argument.
    assert [rec.args for rec in r.executor.records if rec.tool == "measure"] == [{"distance": 9}]


def test_a_method_choosing_a_method_is_refused_and_ends():
    script = [*act("patrol"), "t", "sweep", "{}", *reflect(done=True)]
    r = rig(script, constrained=False)
    r.run()
    [refused] = inner_steps(r)
    reason = "FAILED | Method patrol cannot invoke method tool 'sweep'"
    assert refused.tool == "sweep" and refused.result["reason"] == reason
    assert outer_steps(r)[0].result["reason"] == reason
    assert not any(rec.tool == "sweep" for rec in r.executor.records)


def test_a_method_reached_from_python_inside_a_method_is_refused_too():
    r = rig([*act("sweep"), *inner("nest", {}, "TERMINATION (SUCCESS)"), *reflect(done=True)], constrained=False)
    r.run()
    nested = inner_steps(r)[0]
    assert nested.tool == "nest" and nested.result["status"] == "failed"
    assert nested.result["reason"] == "FAILED | Method sweep cannot invoke method tool 'patrol'"


def test_where_the_backend_selects_methods_are_not_offered_inside_a_method():
    r = rig([*act("sweep"), *inner("patrol", {}, "TERMINATION (SUCCESS)"), *reflect(done=True)])
    r.run()
    assert not any(call.choices and "patrol" in call.choices for call in r.backend.calls[2:])
    assert inner_steps(r)[0].tool == "think" and inner_steps(r)[0].decided.tool == "forced"


def test_a_method_called_outside_a_plan_runs_in_a_prompt_of_its_own():
    r = rig(measure_then("TERMINATION (DISCOVERY)"))
    result = r.executor.execute_action({"type": "patrol"})
    assert result.ok and result.data["outcome"] == "DISCOVERY"
    assert "GOAL: Run the method patrol to its end." in r.backend.calls[0].prompt
    assert inner_steps(r)[0].action["_inner_loop"]["outer_step"] == 1
