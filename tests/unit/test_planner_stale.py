"""The outer loop's watch (agent/planner/loops.py StaleWatch): a step that changed nothing in the
world, or gave the same result as the same call before, is said in the prompt and its tool is
not offered at the next step; the same call stale STALE_BOUND times ends the run failed."""

from __future__ import annotations

from agent.planner.loops import STALE_BOUND, Stale, StaleWatch
from agent.tools import ToolResult
from agent.trace.schema import OuterStep
from support.planning import act, reflect, rig

STILL = lambda: "same world"  # noqa: E731 - a world in which nothing ever changes


def outer(r) -> list[OuterStep]:
    return [e for e in r.trace.events if isinstance(e, OuterStep)]


def tool_choices(r) -> list[list[str]]:
    """The choices of each TOOL_NAME select, in order."""
    return [call.choices for call in r.backend.calls if call.kind == "select" and "no" not in call.choices]


def test_a_call_that_changed_nothing_is_said_and_not_offered_at_the_next_step():
    script = [*act("measure", {"distance": 3}), *reflect(), *act("think", {"thought": "then"}), *reflect(done=True)]
    r = rig(script)
    r.run(digest=STILL)
    first, second = outer(r)
    assert first.loop == "LOOP: measure changed nothing in the world; it is not offered again until something changes."
    assert "measure" in first.offered and "measure" not in second.offered and "measure" not in tool_choices(r)[1]
    assert any(first.loop in prompt for prompt in r.prompts())
    assert "Not offered at this step: measure." in r.prompts()[-1]
    assert second.loop == ""  # think does not act in the world: a new thought is no loop


def test_a_repeated_no_change_call_ends_the_run_failed_at_the_bound():
    think = [*act("think", {"thought": "a"}), *reflect(), *act("think", {"thought": "b"}), *reflect()]
    script = [*act("measure", {"distance": 3}), *reflect(), *think[:5], *act("measure", {"distance": 3}), *reflect(),
              *think[5:], *act("measure", {"distance": 3}), *reflect(), *act("think", {"thought": "c"}), *reflect()]
    r = rig(script, max_steps=10)
    result = r.run(digest=STILL)
    assert result.outcome == "failed" and result.steps == 5 and result.exit_code == 1
    assert result.reason == (f"the plan went round in circles: measure changed nothing in the world "
                             f"({STALE_BOUND} times in the last 5 steps)")
    assert [s.tool for s in outer(r)] == ["measure", "think", "measure", "think", "measure"]
    assert r.backend.calls[-1].prompt.endswith("TOOL_ARGS_JSON: ")  # nothing asked after the bound's step


def test_the_same_result_again_is_stale_without_a_world():
    script = [*act("think", {"thought": "x"}), *reflect(), *act("measure", {"distance": 1}), *reflect(),
              *act("think", {"thought": "x"}), *reflect(done=True)]
    r = rig(script)
    r.run()
    steps = outer(r)
    assert [s.loop for s in steps[:2]] == ["", ""]
    assert steps[2].loop == "LOOP: think gave the same result as before; it is not offered again until something changes."


def test_the_only_tool_offered_going_stale_ends_the_run_instead_of_asking_again():
    r = rig([*act("measure", {"distance": 3}), *reflect()], tools=["measure"], max_steps=5)
    result = r.run(digest=STILL)
    assert result.reason == "the plan went round in circles: every tool offered (measure) was tried and nothing changed"
    assert len(outer(r)) == 1


def test_a_world_that_changed_or_cannot_be_read_is_no_loop():
    watch = StaleWatch()
    moved = ToolResult.success({"x": 1}, "walked")
    assert watch.see("mc-move", {"blocks": 1}, moved, changed=True) == Stale()
    assert watch.see("mc-move", {"blocks": 1}, ToolResult.success({"x": 2}, "walked on"), changed=None) == Stale()
    assert watch.see(None, None, ToolResult.failure("bad_action", "no tool"), changed=False) == Stale()


def test_tools_stay_withheld_until_the_world_changes():
    watch = StaleWatch()
    watch.see("mc-move", {"blocks": 1}, ToolResult.failure("collision", "a wall"), changed=False)
    assert watch.withheld == {"mc-move"}
    watch.see("mc-map", {}, ToolResult.success({}, "the map"), changed=False)
    assert watch.withheld == {"mc-move", "mc-map"}
    assert watch.see("mc-dig", {"forward": 1}, ToolResult.success({}, "dug"), changed=True) == Stale()
    assert watch.withheld == set()
    watch.see("mc-map", {}, ToolResult.success({}, "the map"), changed=False)
    assert watch.withheld == {"mc-map"}


def test_a_new_sub_goal_offers_again_a_withheld_tool_it_gives_a_call_not_yet_made():
    watch = StaleWatch()
    watch.see("craft", {"item": "bookshelf", "count": 1}, ToolResult.failure("refused", "lacks planks"), changed=False)
    watch.see("mc-wait", {"seconds": 5}, ToolResult.success({}, "waited"), changed=False)
    watch.offer_again({"craft": {"item": "bookshelf"}})  # the same call again: still withheld
    assert watch.withheld == {"craft", "mc-wait"}
    watch.offer_again({"craft": {"item": "oak_planks", "count": 6}, "mc-give": {"item": "book"}})
    assert watch.withheld == {"mc-wait"}  # craft has another call; mc-wait was given none



def test_a_success_that_moves_nothing_the_goal_counts_closer_is_stale():
    watch = StaleWatch()
    equipped = ToolResult.success({}, "equipped the pickaxe")
    stale = watch.see("mc-equip", {"item": "wooden_pickaxe"}, equipped, changed=True, closer=False)
    assert stale.said == "LOOP: mc-equip moved nothing the goal counts closer; it is not offered again until " \
                         "something changes." and watch.withheld == {"mc-equip"}
    assert watch.see("mc-collect", {"block": "oak_log"}, ToolResult.success({}, "1 log"), changed=True,
                     closer=True) == Stale()
    assert watch.withheld == set()
