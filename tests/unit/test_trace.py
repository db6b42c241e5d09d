"""The trace: every event kind round-trips through the schema; a killed run's trace reads up
to its last complete line and says the run ended abnormally; the planner writes its steps,
tool calls and LLM calls as events; stop requests and new goals; the report and the
timeline read the same events; replay:TRACE reproduces a run."""

from __future__ import annotations

from typing import get_args

from agent.llm import Capabilities, Usage, open_backend
from agent.replay.report import report_html
from agent.replay.timeline import Filters, render
from agent.trace import Event, read_trace
from agent.trace.schema import (
    EVENT, BuildSeen, CellSeen, Chat, ChatGoal, Command, Death, Disconnect, DoneClaim, Error, Focused, GoalAdded, InnerLoop, Judged, LlmCall, MethodEnd,
    MethodStart, MethodStep, Milestone, MessageRead, Needed, OuterStep, Pose, Rejoin, Respawn, RunEnd, RunSetup, RunStart, SubGoalRead,
    ToolCall, ToolResult, Understood,
)
from support.planning import act, inner, measure_then, reflect, rig

POSE = Pose(x=0.5, y=5, z=-3.2, yaw_deg=180, pitch_deg=0)
RESULT = {"status": "success", "data": {"end": {"x": 0.5, "y": 5, "z": -3.2}}, "value": "moved"}
STEP = dict(outer_step=1, thoughts="go", tool="mc-move", action={"type": "mc-move", "blocks": 4}, result=RESULT,
            next_task="next", wall_s=1.5, tool_s=1.2, llm=Usage(calls=4, seconds=0.3))
SETUP = RunSetup(config={"username": "scout"}, package_version="0.1.0", mc_version="1.20.4", llm_backend="scripted",
                 llm_model="x.py", server="127.0.0.1:25565", local_server=True, scenario="room", seed=7)
EVERY_KIND = [
    RunStart(goal="g", max_steps=3, tools=["mc-move"], llm="scripted:x.py",
             capabilities=Capabilities(select=True, json_schema=True), setup=SETUP),
    LlmCall(backend="scripted", kind="select", prompt_sha256="ab", prompt_chars=10, prompt_added="TOOL_NAME: ",
            choices=["mc-move", "mc-look"], completion="mc-move", tokens_in=3, tokens_prefilled=1, tokens_out=1,
            latency_s=0.01),
    MethodStart(method="explore-area", args={}, outer_step=1, max_steps=12),
    ToolCall(call_id=1, tool="mc-move", tool_type="python", args={"blocks": 4}, depth=1, outer_step=1, inner_step=1,
             pose=POSE),
    ToolResult(call_id=1, tool="mc-move", depth=1, outer_step=1, inner_step=1, result=RESULT, duration_s=1.2,
               pose_before=POSE, pose_after=POSE),
    MethodStep(**STEP, inner_loop=InnerLoop(method_name="explore-area", inner_step=1, max_steps=12, outer_step=1)),
    MethodEnd(method="explore-area", outer_step=1, outcome="DISCOVERY", inner_steps=1, summary="DISCOVERY | ...",
              wall_s=2.0),
    OuterStep(**STEP, done=False),
    DoneClaim(outer_step=1, by="model", holds=False, detail="sky_visible is false: stone at y=8", accepted=False),
    GoalAdded(goal="dig down", outer_step=2),
    Milestone(check="has_item wooden_pickaxe 1", detail="1 in the inventory", after_s=23.3, llm_calls=5, tool="mc-craft"),
    Understood(goal="chop three oak logs and put them in the chest", subgoals=[
        SubGoalRead(says="chop three oak logs", check={"has_item": {"name": "oak_log", "count": 3}},
                    described="has_item oak_log 3", by="rules", lasting=False)]),
    Focused(index=1, of=2, check="has_item oak_log 3", outer_step=1),
    Needed(tool="mc-collect", check="has_item wooden_pickaxe 1", index=1, depth=1, outer_step=2),
    MessageRead(player="alex", text="please give me 1 iron_ingot", whispered=True, became="give alex 1 iron_ingot",
                outer_step=2),
    Judged(check="container_has oak_log 3", holds=False, detail="container_has oak_log 3 is false: 0 in the chests"),
    BuildSeen(anchor=(0, 5, 2), cells=[CellSeen(at=(0, 5, 2), wanted="dirt", held="air", right=False)]),
    Chat(username="alex", message="hi"),
    Command(player="alex", command="!stop", accepted=False, reason="not on the chat allowlist"),
    ChatGoal(player="alex", said="get 3 oak logs and dance", via="chat", outcome="asked", understood="get 3 oak logs",
             not_understood=["dance"], reply="alex: I'd get 3 oak logs; I don't know what 'dance' is; say yes to go, "
                                             "or say it another way"),
    Death(),
    Respawn(),
    Disconnect(kind="kicked", reason="bye"),
    Rejoin(lost="kicked: bye", attempts=1, seconds=0.4, server_restarted=False),
    Error(source="llm", message="unreachable"),
    RunEnd(goal="g", outcome="stopped", reason="stopped, as alex asked", steps=2, inner_steps=1, wall_s=3.0,
           usage=Usage()),
]


def test_every_event_kind_round_trips_through_the_schema_with_its_version():
    members = get_args(get_args(Event)[0])
    assert {event.event for event in EVERY_KIND} == {member.model_fields["event"].default for member in members}
    for event in EVERY_KIND:
        line = event.model_dump_json()
        assert '"schema_version":"1"' in line
        assert EVENT.validate_json(line) == event


def test_a_killed_runs_trace_reads_to_its_last_complete_line_and_says_it_ended_abnormally(tmp_path):
    path = tmp_path / "trace.jsonl"
    lines = [event.model_dump_json() for event in EVERY_KIND[:-1]]
    path.write_text("\n".join(lines) + "\n" + EVERY_KIND[-1].model_dump_json()[:40])
    trace = read_trace(path)
    assert trace.events == EVERY_KIND[:-1] and trace.end is None
    assert trace.truncated_line is not None
    assert "ended abnormally" in trace.abnormal and "cut off" in trace.abnormal
    path.write_text("\n".join(lines + [EVERY_KIND[-1].model_dump_json()]) + "\n")
    assert read_trace(path).abnormal is None


def test_the_planner_writes_steps_tool_calls_and_llm_calls_as_events(tmp_path):
    r = rig([*act("patrol"), *measure_then("TERMINATION (DISCOVERY)"), *reflect(done=True)], trace=tmp_path / "t.jsonl")
    r.run()
    r.trace.close()
    events = read_trace(tmp_path / "t.jsonl").events
    kinds = [e.event for e in events if e.event not in ("llm_call", "tool_call", "tool_result")]
    assert kinds == ["run_start", "method_start", "method_step", "method_step", "method_end", "outer_step", "done_claim",
                     "run_end"]
    calls = [e for e in events if isinstance(e, ToolCall)]
    assert [(c.tool, c.depth, c.inner_step) for c in calls] == [("patrol", 0, None), ("measure", 1, 1), ("think", 1, 2)]
    llm = [e for e in events if isinstance(e, LlmCall)]
    assert len(llm) == r.backend.usage.calls and llm[0].prompt_added == r.prompts()[0]
    assert all(len(later.prompt_added) < later.prompt_chars for later in llm[1:])  # only what each call added
    assert [e.completion for e in llm][:2] == ["thinking", "patrol"]


def test_a_stop_request_ends_the_run_cleanly_before_the_next_step_with_run_end():
    def reply(call):
        if call.index == 3:
            r.planner.control.request_stop("alex")
        return act("patrol")[call.index] if call.index < 3 else ["t", "measure", '{"distance": 1}', "[METHOD: STEP 2]"][
            (call.index - 3) % 4]

    r = rig(reply)
    result = r.run()
    assert (result.outcome, result.exit_code) == ("stopped", 1)  # exit 0 is for a goal reached or claimed
    ended = [e for e in r.trace.events if isinstance(e, MethodEnd)]
    assert ended[0].outcome == "STOPPED" and ended[0].inner_steps == 1
    assert isinstance(r.trace.events[-1], RunEnd) and r.trace.events[-1].reason == "stopped, as alex asked"


def test_a_new_goal_is_appended_to_the_prompt_at_the_next_outer_step():
    r = rig([*act("think", {"thought": "a"}), *reflect(), *act("think", {"thought": "b"}), *reflect(done=True)])
    r.planner.control.add_goal("dig down")
    r.run()
    assert "NEW GOAL (given by a player; it replaces the GOAL above): dig down" in r.prompts()[0]
    assert [e.goal for e in r.trace.events if isinstance(e, GoalAdded)] == ["dig down"]
    assert r.planner.status_line() == "idle"


def test_the_timeline_nests_filters_and_the_report_has_one_row_per_step(tmp_path):
    shown = [line.plain for event in EVERY_KIND if Filters(step=1).keep(event) for line in render(event)]
    assert any(line.startswith("step 1.1 ") and "mc-move" in line for line in shown)
    assert any(line.startswith("step 1 ") for line in shown)
    assert not any(line.startswith("call ") for line in shown)
    tools = [e for e in EVERY_KIND if Filters(tools_only=True).keep(e)]
    assert [e.event for e in tools] == ["tool_result"]
    assert [e.event for e in EVERY_KIND if Filters(method="explore-area").keep(e)] == [
        "method_start", "method_step", "method_end"]
    path = tmp_path / "trace.jsonl"
    path.write_text("".join(event.model_dump_json() + "\n" for event in EVERY_KIND))
    html = report_html(read_trace(path))
    assert '<polyline id="path"' in html and 'class="step"' in html
    assert html.count('<tr class="step ') == 2 and "<script" not in html


def test_replay_serves_the_recorded_replies_and_reproduces_the_tool_sequence(tmp_path):
    script = [*act("patrol"), *measure_then("TERMINATION (DISCOVERY)"), *reflect(done=True)]
    first = rig(script, trace=tmp_path / "first.jsonl")
    first.run()
    first.trace.close()
    again = rig(None, backend=open_backend(f"replay:{tmp_path / 'first.jsonl'}"))
    assert again.run().outcome == "done"
    tools = [[e.tool for e in run.trace.events if isinstance(e, ToolCall)] for run in (first, again)]
    assert tools[0] == tools[1] == ["patrol", "measure", "think"]
    assert again.backend.diverged == []


def test_replay_stops_the_run_when_it_asks_for_more_calls_than_were_recorded(tmp_path):
    first = rig([*act("think", {"thought": "x"}), *reflect(done=True)], trace=tmp_path / "first.jsonl")
    first.run()
    first.trace.close()
    kept = [line for line in (tmp_path / "first.jsonl").read_text().splitlines() if '"llm_call"' not in line][:1]
    kept += [line for line in (tmp_path / "first.jsonl").read_text().splitlines() if '"llm_call"' in line][:2]
    (tmp_path / "short.jsonl").write_text("\n".join(kept) + "\n")
    result = rig(None, backend=open_backend(f"replay:{tmp_path / 'short.jsonl'}")).run()
    assert result.outcome == "llm_error" and "asks for LLM call 3, but the trace recorded only 2" in result.reason
