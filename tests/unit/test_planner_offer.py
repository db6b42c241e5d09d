"""What the outer loop offers: a short catalog ranked by the goal from each Skill.md's text,
instruction tools as guidance and never as actions, the user's own list, and the trace of what
was offered at each step."""

from __future__ import annotations

import pytest
from rich.console import Console

from agent.paths import SKILLS_DIR
from agent.planner.offer import Offering
from agent.replay.timeline import render
from agent.tools import load_toolbox, standard_sources
from agent.tools.ranking import ToolIndex, goal_words
from agent.trace.schema import OuterStep, RunStart
from support.planning import act, reflect, rig

INSTRUCTION = "pit-and-cave-safety"


@pytest.fixture(scope="module")
def toolbox():
    box = load_toolbox(standard_sources("minecraft", [SKILLS_DIR]))
    assert not box.errors, box.errors
    return box


@pytest.fixture(scope="module")
def offering(toolbox):
    return Offering(toolbox, "ranked", 6)


def test_collecting_logs_offers_collecting_finding_digging_and_counting_and_nothing_to_escape_or_note(offering):
    offer = offering.for_goal("collect oak logs")
    assert {"mc-collect", "gather", "mc-find", "mc-dig", "mc-inventory"} <= set(offer.tools)
    assert not {"exit-pit", "explore-area", "mc-pillar-up", "create-note", "mc-say", INSTRUCTION} & set(offer.tools)


def test_getting_out_of_a_cave_offers_the_ways_out_and_the_safety_text_as_guidance(offering):
    offer = offering.for_goal("get out of the cave")
    assert {"explore-area", "mc-explore", "reach-open-sky"} <= set(offer.tools)
    assert not {"create-note", "mc-say", "mc-equip", "mc-inventory", "describe-note", INSTRUCTION} & set(offer.tools)
    assert offer.guidance == [INSTRUCTION] and offer.catalog == "ranked"


def test_saving_a_note_offers_the_infospace_and_no_world_action(offering):
    offer = offering.for_goal("save a note")
    assert {"create-note", "save"} <= set(offer.tools)
    assert not [name for name in offer.tools if name.startswith("mc-")]
    assert not {"explore-area", "exit-pit"} & set(offer.tools)


def test_primitives_stay_out_of_a_goal_that_is_not_about_notes(offering, toolbox):
    for goal in ("get out of the cave", "collect oak logs", "walk ten blocks north"):
        offered = offering.for_goal(goal).tools
        assert all(toolbox.tools[name].source != "core" for name in offered), (goal, offered)


def test_a_ranked_catalog_is_short_and_filled_with_whole_jobs_when_no_word_fits(offering, toolbox):
    for goal in ("get out of the cave", "save a note", "collect oak logs"):
        assert 4 <= len(offering.for_goal(goal).tools) <= 6
    offer = offering.for_goal("xyzzy plugh")
    assert len(offer.tools) == 4 and all(toolbox.tools[name].source == "skills" for name in offer.tools)


def test_the_tools_the_goal_check_gives_arguments_to_come_first_when_their_words_fit(offering):
    goal = "Build a wall of dirt three blocks wide and two blocks high, two blocks in front of you."
    assert offering.for_goal(goal).tools[0] == "mc-tunnel"  # "wall" is in its text
    assert offering.for_goal(goal, first=["mc-build"]).tools[0] == "mc-build"
    offered = offering.for_goal("collect oak logs", first=["mc-collect", "mc-chest"]).tools
    assert offered[0] == "mc-collect" and "mc-chest" not in offered  # no word of the goal fits mc-chest


def test_building_offers_the_build_method_and_mc_build(offering):
    offer = offering.for_goal("Build a wall of dirt three blocks wide and two blocks high")
    assert {"mc-build", "build"} <= set(offer.tools)


def test_the_full_catalog_is_every_action_and_still_no_instruction(toolbox):
    offer = Offering(toolbox, "full", 6).for_goal("get out of the cave")
    actions = {name for name, spec in toolbox.tools.items() if not spec.hidden and spec.type != "instruction"}
    assert set(offer.tools) == actions and INSTRUCTION not in offer.tools and offer.guidance == [INSTRUCTION]


def test_named_tools_are_offered_as_named_and_a_named_instruction_becomes_guidance(offering):
    offer = offering.for_goal("anything", ["mc-map", INSTRUCTION, "explore-area"])
    assert offer.tools == ["mc-map", "explore-area"] and offer.guidance == [INSTRUCTION]
    assert offer.catalog == "named"


def test_the_index_stems_and_drops_words_that_tell_no_tool_apart(toolbox):
    assert goal_words("Get out of THE caves, until you see the sky!") == ["caves", "see", "sky"]
    scores = ToolIndex(toolbox.tools.values()).scores("digging logs")
    assert "mc-dig" in scores and scores["mc-dig"] > scores.get("mc-say", 0.0)
    assert ToolIndex(toolbox.tools.values()).scores("the of to") == {}


def test_an_instruction_tool_is_never_offered_as_a_step(tmp_path):
    tips = tmp_path / "tips"
    tips.mkdir()
    (tips / "Skill.md").write_text('---\nname: tips\ntype: instruction\ndescription: "How to measure well"\n---\n'
                                   "Measure twice, cut once.\n")
    r = rig([*act("measure", {"distance": 1}), *reflect(), *act("measure", {"distance": 2}), *reflect(done=True)],
            catalog="ranked")
    r.planner.toolbox.tools["tips"] = load_toolbox(standard_sources("minecraft", [tmp_path])).tools["tips"]
    r.run("measure the distance")
    selects = [call for call in r.backend.calls if call.kind == "select" and "no" not in call.choices]
    assert selects and all("tips" not in call.choices for call in selects)
    assert [rec.tool for rec in r.executor.records] == ["measure", "measure"]
    first = r.prompts()[0]
    assert first.count("Measure twice, cut once.") == 1 and "GUIDANCE (tips):" in first


def test_the_trace_records_what_each_step_offered_and_replay_shows_it():
    r = rig([*act("measure", {"distance": 1}), *reflect(done=True)], tools=["measure", "think"])
    r.run()
    start = next(e for e in r.trace.events if isinstance(e, RunStart))
    [step] = [e for e in r.trace.events if isinstance(e, OuterStep)]
    assert (start.catalog, start.tools, step.offered) == ("named", ["measure", "think"], ["measure", "think"])
    console = Console(width=200)
    with console.capture() as shown:
        for event in (start, step):
            for line in render(event):
                console.print(line)
    assert "tools offered (named: measure, think)" in shown.get() and "offered: measure, think" in shown.get()


def test_every_shipped_world_tool_and_skill_says_when_to_use_it(toolbox):
    shipped = [spec for spec in toolbox.tools.values() if spec.source in ("minecraft", "skills")]
    assert shipped and [spec.name for spec in shipped if not spec.when_to_use] == []


def test_a_new_goal_from_chat_gets_the_catalog_that_fits_it():
    r = rig([*act("think", {"thought": "a"}), *reflect(done=True)], catalog="ranked")
    r.planner.control.add_goal("save a note of what you found")
    r.run("measure the distance")
    first = r.prompts()[0]
    old, new = first.split("NEW GOAL (given by a player; it replaces the GOAL above): save a note of what you found")
    assert "- measure:" in old and "For the new goal:" in new and "- create-note:" in new
    assert "create-note" in r.backend.calls[1].choices and "measure" not in r.backend.calls[1].choices


def test_where_tools_achieve_the_sub_goal_only_they_and_the_search_are_offered(offering):
    offered = offering.for_goal("go to the gold block near_block gold block", first=["mc-approach"],
                                among=["mc-approach", "mc-explore"]).tools
    assert offered == ["mc-approach", "mc-explore"]
    lone = offering.for_goal("follow alex near_player alex", among=["mc-follow"]).tools
    assert lone == ["mc-follow", "mc-explore"]  # the search, for a player not in view
