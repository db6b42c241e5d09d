"""The runtime decides what the world and the last result can answer, and the model only the
rest: explore-area's checked branches, outcomes that cannot be reached while their checks are
false, literal arguments, typed state, and loops noticed and ended. The body is a fake here
(a logic test); tests/integration/test_planner_world.py runs the same methods in the world."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.checks import Verdict, parse_check
from agent.infospace import Infospace
from agent.llm.scripted import ScriptedBackend, ScriptedCall
from agent.paths import SKILLS_DIR
from agent.planner import Planner, PlannerOptions
from agent.planner.branches import decide
from agent.planner.labels import task_labels
from agent.planner.scope import Scope
from agent.planner.loops import REPEATS_BOUND, VISITS_BOUND, LoopWatch
from agent.tools import Executor, ToolResult, load_toolbox, standard_sources
from agent.trace import TraceWriter
from agent.trace.schema import MethodEnd, MethodStep
from agent.tools.frontmatter import parse_skill
from agent.protocol.method_protocol import parse_protocol
from support.planning import asked_field
from tool_testing import FIXTURE_TOOLS, FIXTURES

HIDDEN = {"holds": False, "says": "stone at y=8, 3 blocks above the head"}
STUCK = {"stop_reason": "no_frontier", "sky_above": False, "blocks_walked": 0.0}


@pytest.fixture(scope="module")
def box():
    toolbox = load_toolbox(standard_sources("minecraft", [Path("skills")], base=SKILLS_DIR.parent))
    assert not toolbox.errors, toolbox.errors
    return toolbox


class FakeBot:
    """Answers the goal check: the sky stays hidden."""

    def __init__(self) -> None:
        self.checks = 0

    def call(self, method: str, args: dict[str, Any], **_: Any) -> dict[str, Any]:
        assert method == "checkGoal"
        self.checks += 1
        return HIDDEN


class FakeBody(Executor):
    """World tools answer from `answers` (tool -> result); methods run for real in the planner."""

    def __init__(self, box, planner: Planner, answers: dict[str, ToolResult]):
        super().__init__(box, Infospace.open(":memory:"), world=FakeBot(), method_runner=planner)
        self.answers, self.called = answers, []

    def execute_action(self, action):
        if action["type"] in self.answers:
            self.called.append(dict(action))
            return self.answers[action["type"]]
        return super().execute_action(action)


def protocol_of(loop: str):
    return parse_protocol(f"#PURPOSE:\nx\n#MAIN PROTOCOL LOOP\n{loop}\n#TERMINATION CONDITIONS\nDONE:\n- done\n"
                          "FAILED:\n- not done\n")


def always(reply: str):
    def answer(call: ScriptedCall) -> str:
        return reply

    return answer


def explore(box, answers: dict[str, ToolResult], reply: str, *, constrained: bool = True):
    backend = ScriptedBackend(always(reply), constrained=constrained)
    trace = TraceWriter()
    planner = Planner(backend, box, PlannerOptions(tools=["explore-area"], max_steps=1), trace)
    body = FakeBody(box, planner, answers)
    judge = lambda: Verdict(holds=False, detail="sky_visible is false: stone above")  # noqa: E731
    result = planner.run("find open sky", body, judge=judge, check=parse_check({"sky_visible": True}, "check"))
    return result, trace, backend, body


def hidden_everywhere(map_data: Any = None) -> dict[str, ToolResult]:
    closed_map = {"reachable_frontiers": 0, "sky_above": False}
    return {
        "mc-explore": ToolResult.failure("stuck", "stuck: no place left to explore by walking", STUCK),
        "mc-map": ToolResult.success(closed_map if map_data is None else map_data, "a closed room"),
        "mc-dig-stairs": ToolResult.failure("blocked", "blocked", {"height_gained": 0.0}),
    }


@pytest.mark.parametrize("constrained", [True, False])
def test_a_model_answering_discovery_at_every_step_cannot_end_explore_area_while_the_sky_is_hidden(box, constrained):
    # mc-map's result cannot be read: its branches are left to the model, which says DISCOVERY.
    unreadable = ToolResult.failure("timeout", "the map did not answer")
    answers = {**hidden_everywhere(), "mc-map": unreadable}
    result, trace, backend, _ = explore(box, answers, "TERMINATION (DISCOVERY)", constrained=constrained)
    ends = [e for e in trace.events if isinstance(e, MethodEnd)]
    assert [e.outcome for e in ends] != ["DISCOVERY"] and result.outcome != "success"
    assert all(e.outcome_holds is not False for e in ends)
    steps = [e for e in trace.events if isinstance(e, MethodStep)]
    assert "TERMINATION (DISCOVERY)" not in [s.next_task for s in steps]
    assert any(s.decided.next == "model" for s in steps)  # the model was asked, and could not get there
    assert backend.calls, "the model was asked where the map could not be read"


def test_where_every_condition_is_checked_explore_area_asks_the_model_nothing(box):
    result, trace, backend, body = explore(box, hidden_everywhere(), "TERMINATION (DISCOVERY)")
    assert backend.calls == []
    steps = [e for e in trace.events if isinstance(e, MethodStep)]
    assert [s.tool for s in steps] == ["mc-explore", "mc-map", "mc-explore"]
    assert [s.next_task for s in steps] == [
        "[METHOD: STEP 2] READ THE MAP", "[METHOD: STEP 4] DIG THROUGH", "TERMINATION (FAILED)"]
    assert all((s.decided.tool, s.decided.args, s.decided.next) == ("forced", "protocol", "checked") for s in steps)
    # The protocol's literal arguments, as written.
    assert body.called == [{"type": "mc-explore", "climbs": 0}, {"type": "mc-map", "radius": 8},
                           {"type": "mc-explore", "allow_dig": True, "climbs": 0}]
    [end] = [e for e in trace.events if isinstance(e, MethodEnd)]
    assert (end.outcome, end.outcome_holds) == ("FAILED", None)


def test_typed_state_is_updated_by_the_protocol_and_shown_to_the_model(box):
    # The map keeps showing a frontier mc-explore cannot reach: twice back to STEP 1, then on.
    answers = hidden_everywhere({"reachable_frontiers": 2, "sky_above": True})
    answers["mc-explore"] = ToolResult.failure("stuck", "stuck", STUCK)
    _, trace, _, body = explore(box, answers, "x")
    steps = [e for e in trace.events if isinstance(e, MethodStep)]
    assert [s.inner_loop.inner_step for s in steps][:6] == [1, 2, 3, 4, 5, 6]
    assert [s.next_task.split("]")[0][-1] for s in steps][:6] == ["2", "1", "2", "1", "2", "3"]


def test_the_method_state_is_in_the_prompt(box):
    answers = hidden_everywhere()
    unreadable = ToolResult.failure("timeout", "the map did not answer")
    _, _, backend, _ = explore(box, {**answers, "mc-map": unreadable}, "[METHOD: STEP 1]")
    assert any('#METHOD STATE: {"map_reads": 1}' in call.prompt for call in backend.calls)


def test_checked_conditions_decide_and_false_ones_leave_the_choices(box):
    protocol = box.tools["explore-area"].protocol
    labels = task_labels(protocol)

    def after(step: int, result: ToolResult, goal: bool | None = False, state: dict | None = None):
        return decide(protocol, labels[step - 1], Scope("t", {}, result, state or {"map_reads": 0}, lambda: goal))

    map_open = ToolResult.success({"reachable_frontiers": 0, "sky_above": True})
    assert (after(2, map_open).decided, after(2, map_open).decider) == (labels[2], "checked")
    timed_out = ToolResult.failure("timeout", "out of time", {"stop_reason": "max_seconds"})
    assert after(1, timed_out).decided == labels[0]
    # Nothing readable, no goal: the model chooses, but never DISCOVERY while the goal is false.
    unknown = ToolResult.failure("exception", "boom")
    assert after(3, unknown, goal=False).decided == labels[4]  # only Otherwise is left: forced
    assert "TERMINATION (DISCOVERY)" in after(3, unknown, goal=None).choices
    assert after(1, unknown, goal=True).decided == "TERMINATION (DISCOVERY)"


def test_a_loop_is_said_then_ends_the_method():
    watch, same = LoopWatch(), ToolResult.success({}, "walked 3.2 blocks, stuck")
    seen = [watch.see("mc-explore", {"climbs": 0}, same, (1, 5, 2)) for _ in range(REPEATS_BOUND)]
    assert seen[0].said == "" and "gave the same result here 2 times" in seen[1].said
    assert "stood here" not in seen[-1].said  # staying is one visit
    assert seen[-1].ended is not None and all(s.ended is None for s in seen[:-1])


def test_coming_back_to_a_cell_is_counted_and_bounded():
    watch, walked = LoopWatch(), ToolResult.success({}, "walked")
    cells = [(0, 5, 0), (3, 5, 0)] * VISITS_BOUND
    seen = [watch.see("mc-goto", {"try": n}, walked, cell) for n, cell in enumerate(cells)]
    assert "you have stood here 3 times in the last 5 steps" in seen[4].said
    assert seen[2 * VISITS_BOUND - 2].ended is not None and all(s.ended is None for s in seen[:2 * VISITS_BOUND - 2])


def test_a_method_going_round_in_circles_ends_failed_with_that_reason(box):
    # mc-map always shows a frontier and mc-explore never gets there: the runtime notices.
    answers = hidden_everywhere({"reachable_frontiers": 1, "sky_above": False})
    answers["mc-explore"] = ToolResult.failure("timeout", "ran out of time", {"stop_reason": "max_seconds"})
    _, trace, _, _ = explore(box, answers, "x")
    [end] = [e for e in trace.events if isinstance(e, MethodEnd)]
    assert end.outcome == "FAILED" and "went round in circles" in end.summary
    assert "gave the same result here 4 times" in end.summary


def test_no_model_call_is_asked_for_nothing(box):
    _, _, backend, _ = explore(box, hidden_everywhere(), "x")
    assert not any(asked_field(call) == "thoughts" for call in backend.calls)


def test_a_world_fact_is_read_in_the_world_only_when_a_condition_asks_and_at_most_once():
    protocol = protocol_of("STEP 1 — LOOK\n- Call think.\n"
                           "- If it failed [when: status == \"failed\"]: proceed to TERMINATION (FAILED).\n"
                           "- If the sky is open [when: world.sky_visible and not world.sky_visible == false]: "
                           "proceed to TERMINATION (DONE).\n- Otherwise: go back to STEP 1.\n")
    reads: list[str] = []

    def read(name: str) -> bool | None:
        reads.append(name)
        return {"sky_visible": True}.get(name)

    failed = Scope("think", {}, ToolResult.failure("exception", "boom"), {}, lambda: None, read)
    assert decide(protocol, "[METHOD: STEP 1] LOOK", failed).decided == "TERMINATION (FAILED)" and reads == []
    ok = Scope("think", {}, ToolResult.success("x"), {}, lambda: None, read)
    assert decide(protocol, "[METHOD: STEP 1] LOOK", ok).decided == "TERMINATION (DONE)"
    assert reads == ["sky_visible"]
    unread = Scope("think", {}, ToolResult.success("x"), {}, lambda: None, lambda name: None)
    assert decide(protocol, "[METHOD: STEP 1] LOOK", unread).choices == ["TERMINATION (DONE)", "[METHOD: STEP 1] LOOK"]


@pytest.mark.parametrize("path", [FIXTURE_TOOLS / "explore-area" / "Skill.md",
                                  FIXTURES / "method-bodies" / "exploration-protocol-as-in-seed.md"])
def test_the_seeds_protocols_run_as_before_every_prose_step_left_to_the_model(path):
    text = path.read_text()
    protocol = parse_skill(text, path, "skills").protocol if text.startswith("---") else parse_protocol(text)
    outcomes = [f"TERMINATION ({o.name})" for o in protocol.outcomes]
    scope = Scope("t", {}, ToolResult.success("x"), {}, lambda: None)
    for step, label in zip(protocol.steps, task_labels(protocol)):
        offered = decide(protocol, label, scope)
        if [(b.condition, b.otherwise) for b in step.branches] == [("", True)]:  # "Loop back to STEP 1."
            assert offered.decider == "forced" and offered.decided.startswith(f"[METHOD: STEP {step.branches[0].step}]")
            continue
        assert offered.decided is None and offered.decider == "model", label
        assert offered.choices[-len(outcomes):] == outcomes and len(offered.choices) > len(outcomes), label
