"""What the planner does with what happened to the bot between steps (agent/session/keeper.py
does the rejoining and respawning; here a fake keeper reports it): a rejoin resumes the step
it was in, a non-resumable method ends INTERRUPTED, a lost world ends the run `disconnected`,
a death is told and counted."""

from __future__ import annotations

from agent.planner.context import BodyNews
from agent.planner.control import WorldLost
from agent.trace.schema import MethodEnd, OuterStep
from support.planning import act, inner, measure_then, reflect, rig

REJOINED = BodyNews("WORLD: the connection to the server was lost; the bot joined again.", rejoined=True)
RESPAWNED = BodyNews("WORLD: you died; the runtime respawned you at (0, 5, 0).", respawned=True)

class Keeper:
    """Reports `news` after the steps given, by count of after_step calls (1-based)."""

    def __init__(self, news: dict[int, BodyNews | Exception]):
        self.news, self.calls = news, 0

    def after_step(self) -> BodyNews | None:
        self.calls += 1
        found = self.news.get(self.calls)
        if isinstance(found, BaseException):
            raise found
        return found

def _run(r, keeper: Keeper, goal: str = "measure something large"):
    return r.planner.run(goal, r.executor, world="a test bench", body=keeper)

def test_after_a_rejoin_the_outer_step_is_resumed_with_the_model_told() -> None:
    r = rig([*act("measure", {"distance": 3}), *act("measure", {"distance": 4}), *reflect(True)], max_steps=3)
    result = _run(r, Keeper({1: REJOINED}))
    assert result.outcome == "done" and result.rejoins == 1 and result.deaths == 0
    steps = [e for e in r.trace.events if isinstance(e, OuterStep)]
    # Nothing was asked after the rejoin: the same task, the runtime's decision.
    assert steps[0].next_task == "" and steps[0].decided.next == "runtime" and steps[0].done is None
    assert REJOINED.said in r.prompts()[3]
    assert "measure" in r.prompts()[3].split(REJOINED.said)[0]

def test_a_death_is_told_counted_and_the_run_goes_on_as_usual() -> None:
    r = rig([*act("measure", {"distance": 3}), *reflect(False, "again"), *act("measure", {"distance": 4}),
             *reflect(True)], max_steps=3)
    result = _run(r, Keeper({1: RESPAWNED}))
    assert result.outcome == "done" and result.deaths == 1 and result.rejoins == 0
    assert any(RESPAWNED.said in p for p in r.prompts())
    assert r.trace.events[-1].deaths == 1

def test_a_lost_world_ends_the_run_disconnected_with_the_reason() -> None:
    r = rig([*act("measure", {"distance": 3}), *reflect(False)], max_steps=5)
    result = _run(r, Keeper({1: WorldLost("lost the server (kicked: bye) and could not join again")}))
    assert result.outcome == "disconnected" and result.exit_code == 1
    assert "could not join again" in result.reason
    assert r.trace.events[-1].event == "run_end" and r.trace.events[-1].outcome == "disconnected"
    assert any(e.event == "error" and e.source == "bot" for e in r.trace.events)

def test_a_method_that_is_not_resumable_ends_interrupted_on_a_rejoin() -> None:
    r = rig([*act("patrol"), *inner("measure", {"distance": 9}, "[METHOD: STEP 2]"), *reflect(False)], max_steps=1)
    result = _run(r, Keeper({1: REJOINED}))
    ended = next(e for e in r.trace.events if isinstance(e, MethodEnd))
    assert ended.outcome == "INTERRUPTED" and ended.inner_steps == 1
    assert "not resumable" in ended.summary
    assert result.rejoins == 1

def test_a_resumable_method_goes_on_at_the_protocol_step_it_was_in() -> None:
    r = rig([*act("patrol"), *act("measure", {"distance": 2}), *measure_then("TERMINATION (DISCOVERY)"),
             *reflect(True)], max_steps=1)
    patrol = r.planner.toolbox.tools["patrol"]
    r.planner.toolbox.tools["patrol"] = patrol.model_copy(update={"resumable": True})
    result = _run(r, Keeper({1: REJOINED}))
    ended = next(e for e in r.trace.events if isinstance(e, MethodEnd))
    assert ended.outcome == "DISCOVERY" and ended.inner_steps == 3  # step 1 twice, then step 2
    first = next(e for e in r.trace.events if e.event == "method_step")
    assert first.next_task.startswith("[METHOD: STEP 1") and first.decided.next == "runtime"
    assert result.rejoins == 1


def test_a_step_the_bot_died_in_is_no_loop_though_the_world_looks_as_before() -> None:
    # Respawned where it began, the bot sees what it saw: the fingerprint alone would call the step stale.
    r = rig([*act("measure", {"distance": 3}), *reflect(False, "again"), *act("measure", {"distance": 3}),
             *reflect(True)], max_steps=3)
    r.planner.run("measure something large", r.executor, world="a test bench", body=Keeper({1: RESPAWNED}),
                  digest=lambda: "same world")
    first, second = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert first.loop == "" and "measure" in second.offered
