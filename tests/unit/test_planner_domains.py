"""Arguments from the world, held by the grammar (agent/planner/domains.py): a name argument that
declares its domain takes only the values the world offers now; a tool whose required name has
none is not callable; without a world the domain is dropped and the name is the model's. A goal
no rule reads is classified by the model among the same grounded choices (classify.py)."""

from __future__ import annotations

import importlib.util
import random

import pytest
from pydantic import ValidationError

from agent.goals.grounds import Columns, Grounds, Point, Sighted
from agent.infospace import Infospace
from agent.llm.random_policy import RandomBackend, sample
from agent.llm.scripted import ScriptedBackend
from agent.planner import Planner, PlannerOptions
from agent.planner.classify import classify, names_for
from agent.planner.args import decoding_schema
from agent.planner.domains import callable_now, domain_values, grounded
from agent.paths import SKILLS_DIR, WORLD_TOOLS_DIR
from agent.tools import Executor, load_toolbox, standard_sources
from agent.tools.schema import JsonSchema, check_args
from agent.trace import TraceWriter
from agent.trace.schema import OuterStep

TOOLS = load_toolbox(standard_sources("minecraft", [], None))
WORLD_TOOLS = WORLD_TOOLS_DIR / "minecraft"


def hint(tool: str):
    return TOOLS.tools[tool].schema_hint


def world(**values) -> dict:
    return domain_values(Grounds(feet=Point(x=0.5, y=5, z=0.5), **values))


def test_each_domain_holds_what_the_world_offers() -> None:
    values = world(carried={"dirt": 3, "stick": 2, "oak_planks": 4}, players=["alex"],
                   blocks=[Sighted(name="grass_block", distance=1.2), Sighted(name="oak_log", distance=5)])
    assert values["carried"] == ["dirt", "oak_planks", "stick"]
    assert values["placeable"] == ["dirt", "oak_planks"]
    assert values["block_seen"] == ["grass_block", "oak_log"]
    assert values["player"] == ["alex"]
    assert "wooden_pickaxe" in values["craftable"] and "crafting_table" in values["craftable"]
    assert "iron_pickaxe" not in values["craftable"]
    smelts = world(carried={"raw_iron": 1, "oak_planks": 2})["smeltable"]
    assert smelts == ["raw_iron", "iron_ingot"]  # what smelts, and what it makes; never planks
    assert world(carried={"sand": 2, "coal": 1, "oak_planks": 2})["fuel"] == ["coal", "oak_planks"]  # not sand
    assert values["chest_seen"] == [] and world(blocks=[Sighted(name="chest", distance=5)])["chest_seen"] == ["chest"]


def test_no_draw_the_grammar_allows_is_refused_by_a_world_tools_arguments_model() -> None:
    # Forms (mc-move: blocks, or one key with a duration), parts of a point, names out of the
    # world: a random policy draws every corner of the grammar; the tool's own model decides.
    rich = world(carried={"dirt": 3, "coal": 1, "raw_iron": 2}, players=["alex"],
                 blocks=[Sighted(name="oak_log", distance=5, at=Point(x=3, y=5, z=4)),
                         Sighted(name="chest", distance=4, at=Point(x=-3, y=5, z=0))])
    refused = {}
    for folder in sorted(p.parent for p in WORLD_TOOLS.glob("*/tool.py")):
        spec, args = TOOLS.tools.get(folder.name), _args_model(folder / "tool.py")
        schema = decoding_schema(spec.schema_hint, rich) if spec and args else None
        rng = random.Random(1)
        for _ in range(200 if schema else 0):
            drawn = sample(schema, rng)
            try:
                args.model_validate(drawn)
            except ValidationError as e:
                refused[folder.name] = (drawn, e.errors()[0]["msg"])
    assert refused == {}


def _args_model(path):
    spec = importlib.util.spec_from_file_location(f"args_of_{path.parent.name.replace('-', '_')}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, "Args", None)


def test_mc_chest_is_offered_only_where_a_chest_is_seen_even_with_its_arguments_given() -> None:
    chest = TOOLS.tools["mc-chest"]
    assert not callable_now(chest, world(carried={"oak_log": 3}), args_given=True)
    assert callable_now(chest, world(blocks=[Sighted(name="chest", distance=5)]), args_given=True)


def test_a_name_argument_is_held_to_its_domain_so_no_draw_writes_another() -> None:
    values = world(carried={"cobblestone": 4}, blocks=[Sighted(name="stone", distance=2)])
    schema = decoding_schema(hint("mc-pillar-up"), values)
    assert schema["properties"]["item"]["enum"] == ["cobblestone"] and "domain" not in schema["properties"]["item"]
    rng = random.Random(0)
    assert {sample(decoding_schema(hint("mc-collect"), values), rng)["block"] for _ in range(20)} == {"stone"}


def test_a_tool_whose_required_name_has_nothing_to_take_is_not_callable_and_an_optional_one_is_left_out() -> None:
    empty = world()
    assert decoding_schema(hint("mc-place"), empty) is None and not callable_now(TOOLS.tools["mc-place"], empty)
    assert "item" not in decoding_schema(hint("mc-pillar-up"), empty)["properties"]
    assert not callable_now(TOOLS.tools["mc-pillar-up"], empty)  # its Skill.md needs a placeable block
    assert callable_now(TOOLS.tools["mc-pillar-up"], world(carried={"dirt": 1}))
    assert callable_now(TOOLS.tools["mc-follow"], world(players=["alex"]))


def test_a_walk_goes_only_to_a_place_the_run_knows_its_x_y_and_z_taken_together() -> None:
    grounds = Grounds(feet=Point(x=1.5, y=2, z=0.5), ground_y=5, hole=Columns.model_validate({"from": [-2, -2], "to": [2, 2]}),
                      blocks=[Sighted(name="dirt", distance=1.1, at=Point(x=1, y=1, z=0)),
                              Sighted(name="chest", distance=6.2, at=Point(x=4, y=5, z=1))])
    values = domain_values(grounds, start=Point(x=0.5, y=2, z=0.5))
    assert values["place"] == [{"x": 0.5, "y": 2, "z": 0.5},  # the start, a step from the feet now
                               {"x": 3.5, "y": 5, "z": 0.5},  # the ground just past the hole's edge, nearest
                               {"x": 4, "y": 5, "z": 1}]  # the chest; not the dirt under the feet
    schema = decoding_schema(hint("mc-goto"), values)
    rng = random.Random(0)
    walks = {(a["x"], a["y"], a["z"]) for a in (sample(schema, rng) for _ in range(40))}
    assert walks == {(0.5, 2, 0.5), (3.5, 5, 0.5), (4, 5, 1)}  # never (10, 10, 10), never a mix of places
    assert decoding_schema(hint("mc-goto"), {**values, "place": []}) is None
    assert "anyOf" not in decoding_schema(hint("mc-goto"))  # no world: the numbers are the model's


def test_a_number_with_a_menu_is_decoded_among_its_values_and_any_in_bounds_still_runs() -> None:
    schema = decoding_schema(hint("mc-collect"), world(blocks=[Sighted(name="sand", distance=3)]))
    assert schema["properties"]["radius"]["enum"] == [8, 16, 32] and "menu" not in schema["properties"]["radius"]
    assert check_args(hint("mc-collect"), {"block": "sand", "radius": 5}) is None
    with pytest.raises(ValueError, match="menu values"):
        JsonSchema(type="integer", minimum=1, maximum=16, menu=[8, 32])


def test_names_inside_a_list_or_a_blueprint_are_held_too_and_a_skill_makes_only_what_the_game_makes() -> None:
    values = world(carried={"dirt": 3, "oak_planks": 4}, blocks=[Sighted(name="stone", distance=2)])
    rng = random.Random(0)
    draws = [sample(decoding_schema(hint("mc-find"), values), rng) for _ in range(30)]
    assert {kind for d in draws for kind in d.get("blocks", [])} == {"stone"}  # never 'yes'
    unseen = decoding_schema(hint("mc-find"), world())["anyOf"]  # nothing seen: only items or players
    assert [sorted(form["required"]) for form in unseen] == [["items"], ["players"]]
    whole = {k: v for k, v in hint("mc-build").dump().items() if k != "forms"}  # a blueprint, at any depth
    cells = grounded(whole, values)["properties"]["blocks"]["items"]
    assert cells["properties"]["block"]["enum"] == ["dirt", "oak_planks"]
    skills = load_toolbox(standard_sources("minecraft", [SKILLS_DIR], None))
    made = decoding_schema(skills.tools["craft"].schema_hint, values)["properties"]["item"]["enum"]
    assert "iron_pickaxe" in made and "furnace" in made and "42" not in made and made[0] in values["craftable"]


def test_without_a_world_the_domain_is_dropped_and_the_name_is_free() -> None:
    schema = decoding_schema(hint("mc-collect"))
    assert "enum" not in schema["properties"]["block"] and "domain" not in schema["properties"]["block"]
    assert callable_now(TOOLS.tools["mc-place"], None)


def test_a_goal_no_rule_reads_is_classified_by_the_model_among_grounded_choices_only() -> None:
    around = Grounds(feet=Point(x=0.5, y=5, z=0.5), carried={"stick": 2},
                     blocks=[Sighted(name="grass_block", distance=1), Sighted(name="gold_block", distance=6)])
    names = names_for(around)
    assert names["near_block"] == ["grass_block", "gold_block"]
    assert {"stick", "dirt", "gold_block"} <= set(names["has_item"])  # carried, grass's drop, gold's own
    near = classify("be where the shiny yellow thing is", around, ScriptedBackend(["near_block", "gold_block"]))
    assert near is not None and near.by == "model" and near.check.describe() == "near_block gold_block 2"
    held = classify("I want two of the yellow ones", around, ScriptedBackend(["has_item", "gold_block"]))
    assert held.check.describe() == "has_item gold_block 2"
    assert classify("do a little dance", around, ScriptedBackend(["none"])) is None
    for seed in range(12):  # a random draw never names what the world did not offer
        drawn = classify("whatever", around, RandomBackend(seed))
        assert drawn is None or drawn.check.describe().split()[1:2] in ([], *[[n] for n in names["has_item"]],
                                                                        *[[n] for n in names["near_block"]])


def test_a_plan_whose_tools_left_all_lack_what_the_world_holds_ends_saying_so_and_calls_none() -> None:
    # Nothing carried: mc-smelt has nothing to smelt, mc-pillar-up nothing to place. The step is
    # not handed a schema with no names in it (a first-offer policy wrote mc-smelt item "x").
    backend, trace = ScriptedBackend(lambda call: "x"), TraceWriter()
    planner = Planner(backend, TOOLS, PlannerOptions(tools=["mc-smelt", "mc-pillar-up"], max_steps=3), trace)
    body = Executor(TOOLS, Infospace.open(":memory:"))
    result = planner.run("make something", body, offers=lambda: world())
    assert result.outcome == "failed" and not [e for e in trace.events if isinstance(e, OuterStep)]
    assert "no tool left to try can be called with what the world holds" in result.reason
    assert "mc-smelt lacks smeltable" in result.reason and "mc-pillar-up lacks placeable" in result.reason
