"""The natural generator (bridge/lib/natural) on the versions the README names: the same chunks
whatever order they are made in, the biomes, trees, ores, caves, water and lava where the game
puts them (tests/fixtures/bridge/natural_survey.js reads them); and a real server on it, where a
scenario's bot is put on dry land and a plain `generator: natural` server is joined, and ore
that lies in stone is reached by a way dug to it (bridge/helpers/burrow.js): never straight down,
and not without a pickaxe where the way runs through stone."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agent.bridge import connect
from agent.checks import evaluate, parse_check
from agent.goals import read_grounds
from agent.node import node_binary, node_environment
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.server.scenario import Scenario
from agent.tools import Toolbox
from support.waiting import wait_for
from support.world_body import scenario_body

SURVEY = Path(__file__).resolve().parent.parent / "fixtures" / "bridge" / "natural_survey.js"
ORES = ["coal_ore", "iron_ore", "copper_ore", "gold_ore", "redstone_ore", "lapis_ore", "diamond_ore"]
SEA_LEVEL = 62
# Seeds whose spawn is in a forest, a desert and a birch forest (seed 42's: the sea, a beach,
# plains and taiga).
SPAWN_BIOMES = [3, 5, 28]


def survey(version: str, seed: int, radius: int = 3) -> dict:
    done = subprocess.run([node_binary(), str(SURVEY), version, str(seed), str(radius)], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL, env=node_environment())
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("version", ["1.16.5", "1.20.4", "1.21.4"])
def test_a_seed_gives_the_same_world_in_any_order_with_what_the_game_puts_where_it_puts_it(version: str) -> None:
    world, others = survey(version, 42), [survey(version, seed, radius=1) for seed in SPAWN_BIOMES]
    blocks = world["blocks"]
    assert {biome for other in others for biome in other["biomes"]} | set(world["biomes"]) >= {
        "ocean", "beach", "desert", "plains", "forest", "birch_forest", "taiga"}
    assert world["digests"] == world["again"]  # trees across chunk borders come out the same either way
    assert world["min_y"] == (0 if version == "1.16.5" else -64)
    assert blocks["bedrock"]["low"] == world["min_y"] and blocks["bedrock"]["high"] <= world["min_y"] + 3
    assert {"oak_log", "spruce_log", "sand", "gravel", "grass_block"} <= set(blocks)
    assert {"birch_log", "sandstone"} <= {name for other in others for name in other["blocks"]}
    assert set(world["trunks"]) == {4, 5, 6, 7}
    assert all(ore in blocks for ore in ORES if ore != "copper_ore" or version != "1.16.5")
    assert blocks["diamond_ore"]["high"] <= 16 and blocks["water"]["high"] == SEA_LEVEL
    assert blocks["lava"]["high"] < world["min_y"] + 10  # lava pools deep down only
    assert world["carved"] > 10_000  # caves under the land


def test_another_seed_is_another_world() -> None:
    assert survey("1.20.4", 42, radius=1)["digests"] != survey("1.20.4", 43, radius=1)["digests"]


def test_a_scenario_on_the_natural_world_puts_its_bot_on_dry_land() -> None:
    scenario = Scenario.model_validate({
        "name": "natural-dry", "description": "seed 12's spawn column is under the sea", "goal": "look around",
        "terrain": {"generator": "natural", "seed": 12}, "spawn": {"x": 0.5, "z": 0.5, "on_surface": True}})
    with LocalServer(ServerSettings(), scenario=scenario) as info:
        with connect(port=info.port, username="dry") as bot:
            assert wait_for(lambda: bot.state().on_ground, timeout_s=30)
            grounds = read_grounds(bot)
            under = bot.call("blockAt", {"x": int(grounds.feet.x // 1), "y": int(grounds.feet.y) - 1,
                                         "z": int(grounds.feet.z // 1)})
    assert grounds.feet.y > SEA_LEVEL and under in ("grass_block", "sand", "dirt", "stone", "gravel"), under


def test_a_plain_natural_server_is_joined_among_trees_and_stone() -> None:
    with LocalServer(ServerSettings(generator="natural", seed=3)) as info:  # a forest at the centre
        assert info.generator == "natural"
        with connect(port=info.port, username="plain") as bot:
            assert wait_for(lambda: bot.state().on_ground, timeout_s=30)
            kinds = set(read_grounds(bot).kinds)
    assert kinds & {"oak_log", "birch_log", "spruce_log"} and "stone" in kinds, kinds


def carrying(name: str, *items: str) -> Scenario:
    scenario = load_scenario(name).model_dump(mode="json", exclude_none=True)
    return Scenario.model_validate({**scenario, "inventory": [{"name": item} for item in items]})


def test_buried_ore_is_reached_by_stairs_and_a_tunnel_never_straight_down(toolbox: Toolbox) -> None:
    # The taiga's nearest iron ore lies 9 below the spawn column: the way zigzags down to it.
    for body in scenario_body(carrying("natural-taiga", "stone_pickaxe"), "burrower", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        start = body.bot.state().position
        report = body.ok("mc-approach", block="iron_ore", timeout_s=120)
        assert report["reached"] and len(report["dug"]) >= 9 and report["end"]["y"] <= start.y - 8
        # each block dug is ahead of the feet block of its step, never the one under the feet
        assert all(d["forward"] == 1 and d["right"] == 0 for d in report["dug"]), report["dug"]
        near = evaluate(body.bot, parse_check({"near_block": {"block": "iron_ore"}}, "c"))
        assert near.holds, near.detail
        back = body.ok("mc-goto", x=start.x, y=start.y, z=start.z, timeout_s=60)  # the stairs lead back up
        assert back["reached"] and back["blocks_dug"] == 0 and back["blocks_placed"] == 0
    for body in scenario_body(load_scenario("natural-taiga"), "barehanded", toolbox):
        # Stopped by stone 4 down, straight above the ore: the way dug so far spirals, so a walk
        # leaves it (it was a shaft of two columns, and the tech tree ended at its bottom).
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        start = body.bot.state().position
        assert body.call("mc-approach", block="iron_ore").code == "needs_tool" and body.bot.state().position.y < start.y - 2
        back = body.ok("mc-goto", x=start.x, y=start.y, z=start.z, timeout_s=60)
        assert back["reached"] and back["blocks_dug"] == 0 and back["blocks_placed"] == 0


def test_collecting_buried_ore_digs_down_to_it_and_without_a_pickaxe_the_way_names_the_tool(toolbox: Toolbox) -> None:
    for body in scenario_body(carrying("natural-plains", "stone_pickaxe"), "miner", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        report = body.ok("mc-collect", block="raw_iron", timeout_s=120)
        assert report["gained"]["raw_iron"] == 1 and report["dug_on_the_way"] > 0
    for body in scenario_body(carrying("natural-plains"), "barehanded", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        refused = body.call("mc-approach", block="iron_ore")
        assert refused.code == "needs_tool" and refused.data["missing"] == [{"name": "wooden_pickaxe", "count": 1}]
        assert "stone is on the way" in refused.reason


def test_the_sea_is_swum_to_an_island_and_a_cave_mouth_walked_down_into_and_out_of(toolbox: Toolbox) -> None:
    # Seed 42: a beach at x 5, the sea from x 7 to 21 along z 12, an island of sand at x 22-26;
    # west, a cave cut down to stone at (-12, 59, 21), six below the land two blocks east.
    beach = Scenario.model_validate({
        "name": "natural-coast", "description": "seed 42's beach, facing the sea", "goal": "swim",
        "terrain": {"generator": "natural", "seed": 42}, "spawn": {"x": 5.5, "z": 10.5, "on_surface": True}})
    for body in scenario_body(beach, "swimmer", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        assert {body.bot.block_at(x, SEA_LEVEL, 12) for x in range(8, 21)} == {"water"}
        swum = body.ok("mc-goto", x=24.5, y=SEA_LEVEL + 1, z=12.5, timeout_s=60)
        assert swum["reached"] and swum["end"]["x"] >= 22 and body.bot.block_at(24, SEA_LEVEL, 12) == "sand"
        start = body.bot.state().position
        assert body.bot.block_at(-12, 59, 21) == "stone" and body.bot.block_at(-10, 65, 21) == "grass_block"
        assert {body.bot.block_at(-12, y, 21) for y in range(60, 66)} == {"air"}  # cut 6 deep beside the land
        down = body.ok("mc-goto", x=-12.5, y=60, z=21.5, timeout_s=60)
        assert down["reached"] and 60 <= down["end"]["y"] < 61 and down["blocks_dug"] == 0
        back = body.ok("mc-goto", x=start.x, y=start.y, z=start.z, timeout_s=60)
        assert back["reached"] and abs(back["end"]["y"] - start.y) < 1 and back["blocks_placed"] == 0


def test_stone_is_quarried_beside_the_feet_never_under_them_so_the_way_back_stays_open(toolbox: Toolbox) -> None:
    # Under the plains' spawn lies stone: taken from under the feet, eleven made a shaft 7 deep
    # that no walk left (and mc-goto said it had reached the spawn from its bottom).
    for body in scenario_body(carrying("natural-plains", "wooden_pickaxe"), "quarrier", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        start = body.bot.state().position
        report = body.ok("mc-collect", block="cobblestone", count=11, timeout_s=120)
        assert report["gained"] == {"cobblestone": 11}
        assert not [d for d in report["dug"] if (d["forward"], d["right"], d["up"]) == (0, 0, -1)], report["dug"]
        back = body.ok("mc-goto", x=start.x, y=start.y, z=start.z, timeout_s=60)
        assert back["reached"] and back["distance_left"] <= 2


def test_ore_open_to_a_cave_no_walk_enters_is_dug_to_and_every_piece_asked_collected(toolbox: Toolbox) -> None:
    # The forest's iron ore nearest the spawn faces caves below: "no walk reaches any", and the
    # tech tree stopped there with one raw iron of three.
    for body in scenario_body(carrying("natural-forest", "stone_pickaxe"), "caver", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        report = body.ok("mc-collect", block="raw_iron", count=3, timeout_s=120)
        assert report["gained"]["raw_iron"] == 3 and report["dug_on_the_way"] > 0


def test_a_way_dug_into_a_cave_is_set_with_a_footing_from_the_inventory_and_walked_back(toolbox: Toolbox) -> None:
    # Seed 28's stone 6 east of this spot lies past a pocket of air: the tunnel's next footing
    # was open air, and the furnace's cobblestone stopped at 4 of 8 ("nothing to stand on").
    scenario = carrying("natural-birch", "wooden_pickaxe").model_dump(mode="json", exclude_none=True)
    scenario["spawn"] = {**scenario["spawn"], "x": -10.5, "z": -19.5}
    for body in scenario_body(Scenario.model_validate(scenario), "caver", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        start = body.bot.state().position
        report = body.ok("mc-collect", block="cobblestone", count=8, timeout_s=120)  # ok: every one of the 8 dug
        assert report["stop_reason"] == "completed" and report["steps"] == 8 and report["dug_on_the_way"] > 0
        back = body.ok("mc-goto", x=start.x, y=start.y, z=start.z, timeout_s=60)
        assert back["reached"]


def test_from_a_room_underground_no_walk_leaves_stairs_are_dug_up_to_the_logs(toolbox: Toolbox) -> None:
    # Where three raw iron left the taiga's tech tree, 12 under the trees: the furnace wanted a
    # table, the table logs, and "no walk reaches any of the spruce_log" ended it.
    scenario = carrying("natural-taiga", "stone_pickaxe").model_dump(mode="json", exclude_none=True)
    scenario["inventory"].append({"name": "cobblestone", "count": 16})  # what the way down gave
    scenario["spawn"] = {"x": 16.5, "y": 55, "z": 21.5, "facing": "south"}
    scenario["boxes"] = [{"block": "stone", "from": [14, 54, 19], "to": [18, 57, 23]},
                          {"block": "air", "from": [15, 55, 20], "to": [17, 56, 22]}]
    for body in scenario_body(Scenario.model_validate(scenario), "underground", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground, timeout_s=30)
        # the chunks around, the trees' among them, before the bot looks for one
        assert wait_for(lambda: all(body.bot.block_at(16 + dx, 70, 21 + dz) is not None
                                    for dx in (-16, 16) for dz in (-16, 16)), timeout_s=30)
        assert not evaluate(body.bot, parse_check({"sky_visible": True}, "c")).holds
        report = body.ok("mc-collect", block="spruce_log", timeout_s=120)
        assert report["gained"].get("spruce_log", 0) >= 1 and report["dug_on_the_way"] >= 10, report
