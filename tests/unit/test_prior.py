"""The runtime's prior in every tool choice, and the rule that weighs a model against it
(agent/planner/prior.py): a decisive prior and a model of no weight cost no call; a model
confident and right overrules a weak prior; a model at chance picks what the first offer picks;
a baseline chooses alone."""

from __future__ import annotations

import json

import sglang as sgl

from agent.diagnostics.measured import CHOICES, CaseScore, choice_weight, score_of
from agent.llm.scripted import ScriptedBackend
from agent.planner.prior import Prior, Standing, Weight
from agent.planner.steps import choose_action
from agent.replay.timeline import choice_line
from tests.support.planning import planner_toolbox

TOOLS = ["measure", "think", "say"]
GIVEN = {"measure": {"distance": 3}, "think": {"thought": "big"}, "say": {"text": "hi"}}


def standing(tool: str, place: int, **facts) -> Standing:
    return Standing(tool=tool, place=place, achieves=facts.get("achieves", False), given=facts.get("given", False),
                    stated=facts.get("stated", False), failed=facts.get("failed", 0))


def plain_prior(tools=TOOLS, **facts_by_tool) -> Prior:
    return Prior([standing(t, i, **facts_by_tool.get(t, {})) for i, t in enumerate(tools)], aim="has_item chest 1")


def choose(backend: ScriptedBackend, prior: Prior, weight: float):
    @sgl.function
    def program(s):
        s += sgl.user("choose")
        return choose_action(s, "k", prior.tools, planner_toolbox(), backend.capabilities, GIVEN, "checked", None,
                             prior, Weight(weight, "as the test says"))
    return program.run(backend=backend, use_thread=False).ret_value


def scores(**by_tool: float):
    """A script whose select scores every tool as a model would (mean token log-probabilities)."""
    return lambda call: json.dumps(by_tool) if call.kind == "select" else "a thought"


def test_a_decisive_prior_is_taken_without_a_model_call():
    backend = ScriptedBackend([])  # any call would fail: the script has no reply
    prior = plain_prior(think={"achieves": True, "given": True}, measure={"achieves": True})
    turn = choose(backend, prior, weight=1.0)
    assert turn.tool == "think" and turn.decided.tool == "runtime" and backend.calls == []
    assert turn.choice.by == "runtime"
    assert turn.choice.why == "only think achieves has_item chest 1 with the check's arguments"
    assert str(choice_line(turn.choice)).strip() == f"chosen by the runtime: {turn.choice.why}"


def test_two_achievers_given_arguments_are_no_decisive_prior():
    backend = ScriptedBackend(scores(measure=-3.0, think=-0.1, say=-3.0))
    prior = plain_prior(think={"achieves": True, "given": True}, measure={"achieves": True, "given": True})
    turn = choose(backend, prior, weight=1.0)
    assert turn.decided.tool == "model" and [c.kind for c in backend.calls].count("select") == 1 and turn.tool == "think"


def test_a_model_that_weighs_nothing_is_not_asked_and_the_runtime_takes_the_first_offer():
    backend = ScriptedBackend([])
    turn = choose(backend, plain_prior(), weight=0.0)
    assert turn.tool == "measure" and backend.calls == [] and turn.decided.tool == "runtime"
    assert turn.choice.why.startswith("the model weighs nothing (as the test says)")


def test_a_tool_that_failed_on_the_sub_goal_loses_its_place():
    turn = choose(ScriptedBackend([]), plain_prior(measure={"failed": 1}), weight=0.0)
    assert turn.tool == "think"
    assert "failed 1 time on this sub-goal" in turn.choice.options[0].why


def test_a_confident_right_model_overrules_a_weak_prior():
    confident = scores(measure=-4.0, think=-0.05, say=-4.0)
    turn = choose(ScriptedBackend(confident), plain_prior(), weight=1.0)
    assert turn.tool == "think" and turn.choice.by == "model"
    [measure, think, _] = turn.choice.options
    assert measure.prior > think.prior and think.model > 0.9 and think.combined > measure.combined


def test_the_same_scores_at_a_small_weight_leave_the_prior_its_pick():
    confident = scores(measure=-4.0, think=-0.05, say=-4.0)
    assert choose(ScriptedBackend(confident), plain_prior(), weight=0.05).tool == "measure"


def test_no_model_overrules_what_the_runtime_knows_strongly():
    """think failed twice here; a model sure of it still does not get it back."""
    sure = scores(measure=-3.0, think=-0.05, say=-3.0)
    assert choose(ScriptedBackend(sure), plain_prior(think={"failed": 2}), weight=1.0).tool == "measure"


def test_a_model_at_chance_picks_what_the_first_offer_picks():
    flat = scores(measure=-1.0, think=-1.0, say=-1.0)
    assert choose(ScriptedBackend(flat), plain_prior(), weight=1.0).tool == "measure"


def test_a_baseline_chooses_alone_and_the_prior_is_kept_beside():
    backend = ScriptedBackend(lambda call: "say" if call.kind == "select" else "x", baseline=True)
    turn = choose(backend, plain_prior(think={"achieves": True, "given": True}), weight=0.0)
    assert turn.tool == "say" and turn.decided.tool == "model" and turn.choice.by == "baseline"


def _scored(right: int, total: int, chance: float):
    cases = [CaseScore(ask=f"c{n}", expected="a", read="a" if n < right else "b",
                       outcome="right" if n < right else "wrong") for n in range(total)]
    return score_of(CHOICES, "digest", cases, 1.0).model_copy(update={"chance": chance})


def test_a_model_at_chance_weighs_nothing_and_a_model_always_right_nearly_all():
    assert choice_weight(_scored(18, 72, chance=0.25)) == 0.0
    assert choice_weight(_scored(24, 72, chance=0.25)) == 0.0  # above chance, but not surely
    assert 0.9 < choice_weight(_scored(72, 72, chance=0.25)) <= 1.0
    assert 0.3 < choice_weight(_scored(50, 72, chance=0.25)) < 0.5


def test_a_model_above_chance_but_below_the_runtime_s_order_weighs_nothing():
    """SmolLM2 on the choice set: 42 of 76 right, chance 31 %, the first offer 66 %."""
    below = _scored(42, 76, chance=0.313).model_copy(update={"first_offer": 0.658})
    assert choice_weight(_scored(42, 76, chance=0.313)) > 0.1 and choice_weight(below) == 0.0


def test_a_team_sub_goal_s_tools_come_before_any_achiever():
    """An ask of a teammate (mc-tell, then mc-wait) is not passed over for a tool that achieves the
    item alone: the teammate carries it."""
    prior = plain_prior(["gather", "measure", "think"], gather={"achieves": True, "given": True},
                        measure={"stated": True}, think={"stated": True})
    assert prior.decisive() is None
    turn = choose(ScriptedBackend([]), prior, weight=0.0)
    assert turn.tool == "measure" and turn.decided.tool == "runtime"
    lone = plain_prior(["gather", "measure"], gather={"achieves": True, "given": True}, measure={"stated": True})
    assert lone.decisive() == ("measure", "only measure is named by the team sub-goal")
