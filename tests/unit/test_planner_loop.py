"""The outer loop on the scripted backend: bounds, DONE, names, arguments, append-only prompt."""

from __future__ import annotations

from agent.trace.schema import DoneClaim, OuterStep, RunEnd, RunStart
from support.planning import Reply, act, reflect, rig


def steps(r) -> list[OuterStep]:
    return [rec for rec in r.trace.events if isinstance(rec, OuterStep)]


def test_the_goal_reported_done_ends_the_run_with_exit_code_0():
    r = rig([*act("measure", {"distance": 3}), *reflect(done=True, next_task="nothing left")])
    result = r.run()
    assert (result.outcome, result.steps, result.exit_code) == ("done", 1, 0)
    [step] = steps(r)
    assert (step.tool, step.action, step.done) == ("measure", {"type": "measure", "distance": 3}, True)
    assert step.result["data"] == {"distance": 3}


def test_the_outer_loop_stops_at_max_steps_with_exit_code_1():
    r = rig([step for n in range(3) for step in (*act("think", {"thought": f"hm {n}"}), *reflect())], max_steps=3)
    result = r.run()
    assert (result.outcome, result.steps, result.exit_code) == ("max_steps", 3, 1)
    assert [s.outer_step for s in steps(r)] == [1, 2, 3]
    assert len(r.backend.calls) == 15  # nothing is asked after the bound


def test_the_prompt_starts_with_goal_world_and_catalog_and_shows_ground_truth():
    r = rig([*act("measure", {"distance": 7}), *reflect(done=True)])
    r.run("find a long corridor")
    first, last = r.prompts()[0], r.prompts()[-1]
    assert "GOAL: find a long corridor" in first and "WORLD STATE: a test bench" in first
    assert "- measure: Measures a distance" in first and "- patrol [method]:" in first
    assert ">> ACTUAL RESULT (ground truth) <<\nsuccess: distance 7 (saved as Note_1)\n>> END RESULT <<" in last


def test_long_lists_in_arguments_are_cut_in_the_prompt_and_kept_whole_in_the_trace():
    # A blueprint's 337 cells written whole, in the call and again in its RESULT, passed
    # SmolLM2's 8,192-token context at the next step (Mindcraft's church).
    items = [f"cell {n}" for n in range(300)]
    r = rig([*act("create-collection", {"items": items}), *reflect(done=True)])
    r.run()
    [step] = steps(r)
    assert step.action["items"] == items
    shown = ", ".join(f'"cell {n}"' for n in range(6))
    assert f'Tool executed: `create-collection` {{"items": [{shown}, "... 294 more"]}}' in r.prompts()[-1]


def test_the_prompt_only_grows_at_the_end_across_steps_methods_and_retries():
    script = [
        "t", "no-such-tool", "think", '{"thought": "a"}', "no", "next",  # a corrective retry
        *act("patrol"), "t", "measure", '{"distance": 9}', "STEP 2", "t", "think", "{}", "TERMINATION (DISCOVERY)",
        *reflect(done=True),
    ]
    r = rig(script, constrained=False)
    assert r.run().outcome == "done"
    prompts = r.prompts()
    for earlier, later in zip(prompts, prompts[1:]):
        assert later.startswith(earlier)


def test_tool_names_are_constrained_to_the_catalog_where_the_backend_can_select():
    r = rig([*act("mesure", {"distance": 1}), *reflect(done=True)])
    r.run()
    tool_call = r.backend.calls[1]
    assert tool_call.kind == "select" and set(tool_call.choices) == set(r.planner.toolbox.tools)
    assert steps(r)[0].tool == "measure"  # the nearest valid choice, as select can only land on one


def test_an_invalid_tool_name_gets_one_corrective_retry():
    r = rig(["t", "`measure`s please", "measure", '{"distance": 2}', *reflect(done=True)], constrained=False)
    r.run()
    [step] = steps(r)
    assert step.tool == "measure" and step.result["status"] == "success"
    assert "'`measure`s please' is not a valid tool name; retry gave 'measure'" == step.note
    assert "is not a valid tool name. Write exactly one of: add, apply," in r.backend.calls[2].prompt


def test_a_name_still_invalid_after_the_retry_fails_the_step_and_the_loop_goes_on():
    r = rig(["t", "jump", "leap", *reflect(), *act("think", {"thought": "ok"}), *reflect(done=True)], constrained=False)
    result = r.run()
    first, second = steps(r)
    assert first.tool is None and first.result["code"] == "bad_action"
    assert "retry gave 'leap', also invalid" in first.result["reason"]
    assert (second.tool, result.outcome) == ("think", "done")


def test_unparseable_args_fail_as_bad_args_without_running_the_tool():
    r = rig([*act("measure", "distance = 4"), *reflect(done=True)], constrained=False)
    r.run()
    [step] = steps(r)
    assert (step.result["status"], step.result["code"]) == ("failed", "bad_args")
    assert "not JSON even after repair" in step.result["reason"]
    assert not any(rec.tool == "measure" for rec in r.executor.records)


def test_args_are_repaired_then_validated_against_the_schema():
    r = rig([*act("measure", "{'distance': 4,"), *reflect(), *act("measure", '{"distance": 40}'), *reflect(done=True)],
            constrained=False)
    r.run()
    repaired, too_far = steps(r)
    assert repaired.action == {"type": "measure", "distance": 4} and repaired.result["status"] == "success"
    assert too_far.result["code"] == "bad_args"
    assert "argument 'distance': expected an integer from 0 to 10, got 40" in too_far.result["reason"]


def test_args_are_schema_constrained_where_the_backend_can():
    r = rig([*act("measure", {"distance": 1}), *reflect(done=True)])
    r.run()
    args_call = r.backend.calls[2]
    assert args_call.json_schema is not None and '"required": ["distance"]' in args_call.json_schema
    assert '"additionalProperties": false' in args_call.json_schema


def test_the_trace_is_written_as_it_happens_and_reads_back(tmp_path):
    from agent.trace import read_trace

    trace = tmp_path / "run" / "trace.jsonl"
    r = rig([*act("think", {"thought": "x"}), *reflect(done=True)], trace=trace)
    result = r.run()
    r.trace.close()
    assert result.trace == trace
    events = read_trace(trace).events
    assert events == r.trace.events
    start, *_, step, claim, end = events
    assert isinstance(start, RunStart) and start.world == "a test bench" and start.check is None
    assert isinstance(step, OuterStep) and step.llm.calls == 5
    assert isinstance(claim, DoneClaim) and claim.holds is None and claim.accepted
    assert isinstance(end, RunEnd) and end.outcome == "done" and end.usage.calls == 5
    assert end.reason.startswith("unverified: no check") and (end.claims, end.claims_refused) == (1, 0)


def test_an_llm_failure_ends_the_run_as_llm_error_with_its_reason():
    r = rig([*act("think", {"thought": "x"})])  # the script runs out at DONE
    result = r.run()
    assert result.outcome == "llm_error" and result.exit_code == 1
    assert "the script has no reply left for call 4 (done)" in result.reason


def test_ctrl_c_ends_the_run_cleanly_with_the_end_record():
    def reply(call):
        if call.index == 7:
            raise KeyboardInterrupt
        return act("patrol")[call.index] if call.index < 3 else ["t", "measure", '{"distance": 1}', "[METHOD: STEP 2]"][
            (call.index - 3) % 4]

    r = rig(reply)
    result = r.run()
    assert (result.outcome, result.exit_code) == ("interrupted", 130)
    assert r.trace.events[-1].event == "run_end" and r.trace.events[-1].outcome == "interrupted"
    assert r.planner._method is None  # a later method call is not refused as nested


def test_without_free_text_every_decision_is_a_constrained_choice():
    r = rig([Reply("measure", "tool"), Reply('{"distance": 4}', "args"), Reply("no", "done"), Reply("think", "tool"),
             Reply('{"thought": "x"}', "args"), Reply("yes", "done")], max_steps=3)
    r.backend.capabilities = r.backend.capabilities.model_copy(update={"thoughts": False})
    assert r.run().outcome == "done"
    asked = [(call.kind, call.json_schema is not None) for call in r.backend.calls]
    assert asked == [("select", False), ("gen", True), ("select", False), ("select", False), ("gen", True),
                     ("select", False)]  # tool, args, DONE; tool, args, DONE: no THOUGHTS, no NEXT_TASK
    assert all("THOUGHTS: " not in call.prompt.rsplit("ASSISTANT:", 1)[-1] for call in r.backend.calls)
    assert "STEP 2/3. NEXT_TASK: choose the next tool that moves toward the GOAL" in r.prompts()[-1]
    assert [s.thoughts for s in steps(r)] == ["", ""]


def test_a_prompt_grown_past_its_bound_starts_afresh_with_a_recap_and_the_steps_go_on():
    script = [step for n in range(5) for step in (*act("think", {"thought": f"idea {n}"}), *reflect())]
    r = rig(script, max_steps=5, prompt_growth=700)
    result = r.run()
    assert (result.outcome, result.steps) == ("max_steps", 5)
    assert [s.outer_step for s in steps(r)] == [1, 2, 3, 4, 5]
    fresh = [p for earlier, p in zip(r.prompts(), r.prompts()[1:]) if not p.startswith(earlier)]
    assert fresh, "no prompt started afresh"
    assert all(p.startswith(r.prompts()[0].split("GOAL:")[0]) for p in fresh)  # the same system prompt
    first_fresh = fresh[0]
    assert "EARLIER STEPS (the prompt starts afresh here" in first_fresh
    assert 'STEP 1: think {"thought": "idea 0"} -> success: thought: idea 0' in first_fresh
    assert "STEP 2/5." in first_fresh and "STEP 1/5." not in first_fresh  # 700 tokens of room: one step a prompt
