"""The world decides, not the model: a DONE the goal check refuses is answered in the prompt and
the run goes on; a check that holds after any step ends the run as a verified success without
asking the model; a method's DISCOVERY reaches the outer loop with the check's verdict; a check
lost for good (an avoided block entered) ends the method and the run failed; what a failed step
lacked becomes the sub-goal the plan turns to next."""

from __future__ import annotations

from collections.abc import Callable

from agent.checks import Verdict, parse_check
from agent.goals import understand
from agent.planner.focus import Focus
from agent.trace.schema import DoneClaim, Focused, MethodEnd, Needed, OuterStep, RunStart
from agent.planner import prompts
from support.planning import act, asked_field, inner, measure_then, reflect, rig

HIDDEN = "sky_visible is false: stone at y=8, 3 blocks above the head"
OPEN = "sky_visible holds: nothing opaque above the head"
CHECK = parse_check({"sky_visible": True}, "check")


def judge(*answers: bool) -> Callable[[], Verdict]:
    """A world whose check answers `answers` in turn, then keeps the last answer."""
    left, last = list(answers), [False]

    def read() -> Verdict:
        if left:
            last[0] = left.pop(0)
        return Verdict(holds=last[0], detail=OPEN if last[0] else HIDDEN)

    return read


def run(r, world: Callable[[], Verdict]):
    return r.planner.run("get out to open sky", r.executor, world="a test bench", judge=world, check=CHECK)


def claims(r) -> list[DoneClaim]:
    return [e for e in r.trace.events if isinstance(e, DoneClaim)]


def test_with_a_check_the_model_is_never_asked_done_and_the_run_goes_on_to_its_bound():
    r = rig([*act("think", {"thought": "out"}), *reflect(), *act("think", {"thought": "x"}), *reflect()],
            max_steps=2)
    result = run(r, judge(False))
    assert (result.outcome, result.exit_code) == ("max_steps", 1)
    assert (result.claims, result.claims_refused) == (0, 0) and claims(r) == []
    assert not any(asked_field(call) == "done" for call in r.backend.calls)
    assert prompts.NEXT_ONLY in r.prompts()[3]  # step 1's NEXT_TASK: the world has answered DONE
    steps = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert [(s.done, s.decided.next) for s in steps] == [(None, "model")] * 2
    start = next(e for e in r.trace.events if isinstance(e, RunStart))
    assert start.check == {"sky_visible": True}


def test_a_check_that_holds_after_a_step_ends_the_run_verified_without_asking_the_model():
    r = rig([*act("think", {"thought": "a"}), *reflect(), *act("think", {"thought": "b"})], max_steps=5)
    result = run(r, judge(False, True))
    assert (result.outcome, result.exit_code) == ("success", 0)
    assert result.reason == f"verified: {OPEN}" and result.claims == 0
    assert len(r.backend.calls) == 7  # step 1: THOUGHTS, TOOL_NAME, TOOL_ARGS_JSON, NEXT_TASK; step 2: the first three
    last = [e for e in r.trace.events if isinstance(e, OuterStep)][-1]
    assert last.done is None and last.next_task == "" and last.decided.next == "runtime"
    assert [(c.by, c.holds, c.accepted) for c in claims(r)] == [("world", True, True)]


def test_inside_a_method_the_check_holding_ends_the_method_and_the_run():
    r = rig([*act("patrol"), *act("measure", {"distance": 3})])  # no NEXT_TASK is asked for
    result = run(r, judge(True))
    assert result.outcome == "success" and result.inner_steps == 1
    end = next(e for e in r.trace.events if isinstance(e, MethodEnd))
    assert end.outcome == "GOAL_REACHED" and end.summary.startswith("GOAL_REACHED | the goal check holds after")
    # patrol takes no arguments and its step 1 calls measure only: THOUGHTS and TOOL_NAME, then THOUGHTS and args.
    assert [asked_field(call) for call in r.backend.calls] == ["thoughts", "tool", "thoughts", "args"]


def test_a_discovery_reaches_the_outer_loop_with_the_checks_verdict():
    r = rig([*act("patrol"), *measure_then("TERMINATION (DISCOVERY)"), *reflect(done=False)], max_steps=1)
    result = run(r, judge(False))
    assert result.outcome == "max_steps"
    step = next(e for e in r.trace.events if isinstance(e, OuterStep))
    assert step.result["value"].endswith(f"; goal check: {HIDDEN}")
    assert step.result["data"]["goal_check"] == {"holds": False, "detail": HIDDEN, "lost": False}
    assert f"goal check: {HIDDEN}" in r.prompts()[-1]  # the model reads it before answering DONE
    assert [(c.by, c.method, c.holds) for c in claims(r)] == [("method", "patrol", False)]
    assert (result.claims, result.claims_refused) == (1, 1)


BURNED = "not all hold: avoided lava is false: was in lava at (0, 4, 3)"


def lost_after(steps: int) -> Callable[[], Verdict]:
    """A world whose check is false, and false for good from the `steps`-th reading on."""
    read = [0]

    def verdict() -> Verdict:
        read[0] += 1
        return Verdict(holds=False, detail=BURNED if read[0] >= steps else HIDDEN, lost=read[0] >= steps)

    return verdict


def test_a_check_lost_for_good_ends_the_run_failed_without_asking_the_model_more():
    r = rig([*act("think", {"thought": "a"}), *reflect(), *act("think", {"thought": "b"})], max_steps=5)
    result = run(r, lost_after(2))
    assert (result.outcome, result.exit_code) == ("failed", 1)
    assert result.reason == f"the goal can no longer be reached: {BURNED}" and result.steps == 2
    assert len(r.backend.calls) == 7  # step 2's NEXT_TASK is not asked: nothing is left to choose
    assert claims(r) == []


def test_inside_a_method_a_check_lost_for_good_ends_the_method_failed_and_the_run():
    r = rig([*act("patrol"), *act("measure", {"distance": 3})])
    result = run(r, lost_after(1))
    assert result.outcome == "failed" and result.inner_steps == 1
    end = next(e for e in r.trace.events if isinstance(e, MethodEnd))
    assert end.outcome == "FAILED"
    assert end.summary == f"FAILED | the goal can no longer be reached after internal step 1: {BURNED}"


def test_a_new_goal_from_chat_drops_the_old_goals_check():
    r = rig([*act("think", {"thought": "a"}), *reflect(done=False), *act("think", {"thought": "b"}), *reflect(done=True)])
    r.planner.control.add_goal("build a tower")
    result = run(r, judge(False))
    assert result.outcome == "done" and result.reason.startswith("unverified: no check")


def test_an_llm_failure_inside_a_method_ends_the_run_as_llm_error_not_as_a_tool_failure():
    # The script runs out at the method's second step: the prompt is mid-turn, nothing may go on.
    r = rig([*act("patrol"), *inner("measure", {"distance": 3}, "[METHOD: STEP 2]"), "thinking"])
    result = run(r, judge(False))
    assert result.outcome == "llm_error" and "the script has no reply left for call 6 (args)" in result.reason
    end = next(e for e in r.trace.events if isinstance(e, MethodEnd))
    assert end.outcome == "FAILED" and "no reply left for call 6" in end.summary
    assert [e.source for e in r.trace.events if e.event == "error"] == ["llm"]


def test_what_a_failed_step_lacked_becomes_the_next_sub_goal_and_the_prompt_turns_to_it():
    goals = understand("get a stone pickaxe")
    focus = Focus(goals, lambda check: Verdict(holds=False, detail=""))
    asked = {"item": "stone_pickaxe", "count": 1}  # what the check states (given.py)
    r = rig([*act("craft", asked), *reflect(), *act("measure", {"distance": 1}), *reflect()], max_steps=2)
    r.planner.run("get a stone pickaxe", r.executor, judge=judge(False), check=goals.check, focus=focus)
    [needed] = [e for e in r.trace.events if isinstance(e, Needed)]
    assert (needed.tool, needed.check, needed.index, needed.depth, needed.outer_step) == (
        "craft", "has_item stick 2", 1, 1, 1)
    focused = [(e.index, e.of, e.check, e.outer_step) for e in r.trace.events if isinstance(e, Focused)]
    assert focused == [(1, 1, "has_item stone_pickaxe 1", 1), (1, 2, "has_item stick 2", 2)]
    assert prompts.FOCUS.format(index=1, of=2, says="get 2 stick (craft needs it)") in r.prompts()[-1]


def test_a_tool_withheld_as_stale_is_offered_again_for_the_sub_goal_its_refusal_made():
    goals = understand("get a stone pickaxe")
    focus = Focus(goals, lambda check: Verdict(holds=False, detail=""))
    r = rig([*act("craft", {"item": "stone_pickaxe", "count": 1}), *reflect(), *act("measure", {"distance": 1}),
             *reflect()], max_steps=2)
    r.planner.run("get a stone pickaxe", r.executor, judge=judge(False), check=goals.check, focus=focus,
                  digest=lambda: "same world")  # the refusal changed nothing: craft went stale
    first, second = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert first.loop.startswith("LOOP: craft changed nothing") and "craft" in second.offered  # for the sticks


def test_what_a_step_aside_from_the_focus_lacked_is_not_a_need():
    goals = understand("get 2 sand")  # dug, never made: the check gives craft no arguments
    focus = Focus(goals, lambda check: Verdict(holds=False, detail=""))
    r = rig([*act("craft", {"item": "furnace", "count": 1}), *reflect()], max_steps=1)
    r.planner.run("get 2 sand", r.executor, judge=judge(False), check=goals.check, focus=focus)
    assert not [e for e in r.trace.events if isinstance(e, Needed)] and len(focus.goals.subgoals) == 1
