"""The sub-planner python tools call through executor.subplan(goal, tools, max_steps)."""

from __future__ import annotations

from agent.infospace import Infospace
from agent.planner.control import WorldLost
from agent.trace.schema import Error, OuterStep, RunEnd, RunStart
from agent.tools import Executor
from support.planning import act, asked_field, planner_toolbox, reflect, rig


def test_a_python_tool_runs_a_sub_plan_in_its_own_prompt_and_gets_the_outcome():
    script = [
        *act("delegate", {"goal": "note that the corridor is long"}),
        *act("think", {"thought": "the corridor is long"}), *reflect(done=True, next_task="back"),  # the sub-plan
        *reflect(done=True),
    ]
    r = rig(script)
    result = r.run()
    assert result.outcome == "done" and result.steps == 1
    sub = [rec for rec in r.trace.events if rec.plan == 1]
    steps = [rec.event for rec in sub if rec.event not in ("llm_call", "tool_call", "tool_result")]
    assert steps == ["run_start", "outer_step", "run_end"]
    assert sub[0].goal == "note that the corridor is long" and sub[-1].outcome == "done"
    main_step = [rec for rec in r.trace.events if isinstance(rec, OuterStep) and rec.plan == 0][0]
    assert main_step.result["data"] == {"outcome": "done", "steps": 1, "reason": "unverified: the sub-plan reported done at step 1"}
    sub_prompt = r.backend.calls[3].prompt
    assert sub_prompt.startswith("SYSTEM:") and "GOAL: note that the corridor is long" in sub_prompt
    # Only the tools it was given: one, so it is not asked for a tool name.
    assert [asked_field(call) for call in r.backend.calls[3:5]] == ["thoughts", "args"]
    assert "TOOL_NAME: think" in r.backend.calls[4].prompt
    sub_step = next(rec for rec in sub if isinstance(rec, OuterStep))
    assert (sub_step.decided.tool, sub_step.decided.args) == ("forced", "model")


def test_a_sub_plan_that_runs_out_of_steps_is_a_failed_result():
    script = [*act("delegate", {"goal": "g"}), *(act("think", {"thought": "t"}) + reflect()) * 2, *reflect(done=True)]
    r = rig(script)
    r.run()
    main_step = [rec for rec in r.trace.events if isinstance(rec, OuterStep) and rec.plan == 0][0]
    assert main_step.result["status"] == "failed"
    assert main_step.result["reason"].startswith("sub-plan ended with max_steps")


def test_unknown_tools_are_refused_before_planning():
    r = rig([*act("delegate", {"goal": "g", "tools": ["teleport"]}), *reflect(done=True)])
    r.run()
    step = [rec for rec in r.trace.events if isinstance(rec, OuterStep)][0]
    assert step.result["code"] == "bad_args" and "no tool named 'teleport'" in step.result["reason"]
    assert not [rec for rec in r.trace.events if isinstance(rec, RunStart) and rec.plan == 1]


def test_without_a_planner_subplan_is_unavailable():
    executor = Executor(planner_toolbox(), Infospace.open(":memory:"))
    result = executor.execute_action({"type": "delegate", "goal": "g"})
    assert result.code == "unavailable"
    assert "subplan needs the planner" in result.reason


class _LosingKeeper:
    """Loses the world after the first step: inside the sub-plan."""

    def after_step(self):
        raise WorldLost("lost the server and could not join again")


def _endings(r) -> list[tuple[str, int, str]]:
    return [(rec.event, rec.plan, getattr(rec, "outcome", None) or getattr(rec, "source", ""))
            for rec in r.trace.events if isinstance(rec, (Error, RunEnd))]


def test_an_llm_failure_in_a_sub_plan_is_recorded_there_and_ends_the_run():
    r = rig([*act("delegate", {"goal": "g"}), *act("think", {"thought": "t"})])  # the script runs out at DONE
    result = r.run()
    assert result.outcome == "llm_error" and "no reply left" in result.reason
    assert _endings(r) == [("error", 1, "llm"), ("run_end", 1, "llm_error"), ("run_end", 0, "llm_error")]


def test_a_world_lost_in_a_sub_plan_is_recorded_once_by_the_run():
    r = rig([*act("delegate", {"goal": "g"}), *act("think", {"thought": "t"}), *reflect(), *reflect(done=True)])
    result = r.planner.run("measure something large", r.executor, world="a test bench", body=_LosingKeeper())
    assert (result.outcome, result.reason) == ("disconnected", "lost the server and could not join again")
    assert _endings(r) == [("run_end", 1, "disconnected"), ("error", 0, "bot"), ("run_end", 0, "disconnected")]
