"""mc-collect on the real server, under the tree scenario's oak (a trunk of four logs): the logs
are walked to, dug and picked up, the inventory counted before and after says what was gained,
the trunk's cells are air afterwards; the top log, 3 above the feet, is in reach from the eyes,
a trunk 7 high is cut to its top from a pillar taken down after, a buried block is dug to, and a
kind not there is not_found. While the run's goal has a build, neither mc-collect nor mc-dig digs
its cells, and the result says why. Then `mcagent run` on the tree, with a policy that
calls mc-collect, ends verified."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.checks import Check, evaluate, parse_check
from agent.server import Scenario, load_scenario
from agent.tools import Toolbox
from agent.trace import read_trace
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript, wait_until_gone
from support.waiting import wait_for
from support.world_body import Body, scenario_body

TRUNK = [(4, y, 5) for y in range(5, 9)]
COLLECT_POLICY = FIXTURES / "planner" / "collect_policy.py"


@pytest.fixture(scope="module")
def tree(toolbox: Toolbox) -> Iterator[Body]:
    for body in scenario_body("tree", "woodcutter", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        yield body


def _logs(body: Body) -> int:
    return sum(i["count"] for i in body.ok("mc-inventory")["items"] if i["name"] == "oak_log")


def test_three_logs_are_dug_picked_up_and_counted(tree: Body) -> None:
    assert _logs(tree) == 0
    report = tree.ok("mc-collect", block="oak_log", count=3)
    assert report["stop_reason"] == "completed" and report["blocks_dug"] == 3
    assert report["gained"] == {"oak_log": 3}
    assert _logs(tree) == 3
    dug = {(d["position"]["x"], d["position"]["y"], d["position"]["z"]) for d in report["dug"]}
    assert dug < set(TRUNK) and all(tree.bot.block_at(*cell) == "air" for cell in dug)
    assert evaluate(tree.bot, parse_check({"has_item": {"name": "oak_log", "count": 3}}, "c")).holds


def test_the_top_log_3_above_the_feet_is_in_reach_from_the_eyes_and_a_kind_not_there_not_found(tree: Body) -> None:
    # The game's reach is 4.5 blocks from the eyes: the fourth log, 3 above the feet, is 4.0 away.
    top = tree.ok("mc-collect", block="oak_log")
    assert [(d["position"]["x"], d["position"]["y"], d["position"]["z"]) for d in top["dug"]] == [TRUNK[-1]]
    assert top["gained"] == {"oak_log": 1} and _logs(tree) == 4
    none = tree.call("mc-collect", block="sand", count=2)
    assert none.code == "not_found" and "no sand left within 16 blocks" in none.reason


def test_an_unknown_block_is_refused_before_anything_moves(tree: Body) -> None:
    result = tree.call("mc-collect", block="oak_logs")
    assert result.code == "bad_args" and "unknown block 'oak_logs'" in result.reason


def test_an_item_no_block_here_is_named_after_is_dug_from_the_blocks_that_drop_it(toolbox: Toolbox) -> None:
    for quarry in scenario_body("quarry", "quarrier", toolbox):  # stone, and a wooden pickaxe
        assert wait_for(lambda: quarry.bot.state().on_ground)
        report = quarry.ok("mc-collect", block="cobblestone", count=2)
        assert [d["block"] for d in report["dug"]] == ["stone", "stone"] and report["gained"] == {"cobblestone": 2}


def test_stone_without_a_pickaxe_is_refused_for_the_tool_and_dug_by_hand_drops_nothing(toolbox: Toolbox) -> None:
    bare = load_scenario("quarry").model_copy(update={"inventory": []})  # the game's rule: no pickaxe, no cobblestone
    for quarry in scenario_body(bare, "barehanded", toolbox):
        assert wait_for(lambda: quarry.bot.state().on_ground)
        refused = quarry.call("mc-collect", block="cobblestone")
        assert refused.code == "needs_tool" and "wooden_pickaxe, stone_pickaxe or better" in refused.reason
        assert refused.data["missing"] == [{"name": "wooden_pickaxe", "count": 1}]  # what the planner needs first
        assert quarry.ok("mc-dig", x=0, y=6, z=4)["block"] == "stone"  # the outcrop's top, in reach from the spawn
        assert quarry.bot.block_at(0, 6, 4) == "air"
        assert not wait_for(lambda: quarry.ok("mc-inventory")["items"], timeout_s=2)  # and nothing dropped


BURIED = Scenario.model_validate({
    "name": "buried-stone", "description": "a stone block under the grass 2 east, another on the grass 6 east",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "east"}, "inventory": [{"name": "wooden_pickaxe"}],
    "blocks": [{"block": "stone", "at": [2, 3, 0]}, {"block": "stone", "at": [6, 5, 0]}]})


def test_the_block_dug_is_the_nearest_open_to_the_air_then_a_way_is_dug_to_a_buried_one(toolbox: Toolbox) -> None:
    for body in scenario_body(BURIED, "digger", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        report = body.ok("mc-collect", block="cobblestone")
        assert [(d["position"]["x"], d["position"]["y"]) for d in report["dug"]] == [(6, 5)]  # not the nearer, buried one
        assert report["dug_on_the_way"] == 0 and body.bot.block_at(2, 3, 0) == "stone"
        buried = body.ok("mc-collect", block="cobblestone")  # only the buried one is left: a way is dug to it
        assert [(d["position"]["x"], d["position"]["y"]) for d in buried["dug"]] == [(2, 3)]
        assert buried["dug_on_the_way"] > 0 and buried["gained"]["cobblestone"] == 1
        left = body.call("mc-collect", block="cobblestone")
        assert left.code == "not_found" and "(for cobblestone) left within 16 blocks" in left.reason


TALL_OAK = Scenario.model_validate({
    "name": "tall-oak", "description": "an oak trunk 7 high (y 5-11) 3 south under leaves from y 9",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "boxes": [{"block": "oak_leaves", "from": [-2, 9, 1], "to": [2, 12, 5]}, {"block": "oak_log", "from": [0, 5, 3], "to": [0, 11, 3]}]})


def _build(*cells: tuple[int, int, int], block: str = "oak_planks") -> Check:
    x0, y0, z0 = cells[0]
    return parse_check({"blueprint": {"anchor": list(cells[0]), "blocks": [
        {"at": [x - x0, y - y0, z - z0], "block": block} for x, y, z in cells]}}, "goal")


def test_every_log_of_a_trunk_7_high_is_cut_the_top_from_a_pillar_taken_down_after(toolbox: Toolbox) -> None:
    for body in scenario_body(TALL_OAK, "lumberjack", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        body.executor.run_check = _build((40, 5, 40), block="oak_log")  # a build out of the collecting's reach
        report = body.ok("mc-collect", block="oak_log", count=7, timeout_s=120)
        assert sorted(d["position"]["y"] for d in report["dug"]) == list(range(5, 12))  # the top is 6 above the ground
        assert report["gained"] == {"oak_log": 7}  # the block the pillar was made of came back
        assert [body.bot.block_at(0, y, 3) for y in range(5, 12)] == ["air"] * 7  # nothing built stays


HOUSE = [(0, 5, 3), (1, 5, 3), (2, 5, 3)]
BUILT = Scenario.model_validate({
    "name": "planks-built", "description": "three oak planks of a build 3 south, one more plank 4 west of them",
    "spawn": {"x": 0.5, "y": 5, "z": 0.5, "facing": "south"},
    "blocks": [{"block": "oak_planks", "at": list(cell)} for cell in [*HOUSE, (-4, 5, 3)]]})


def test_no_digging_tool_takes_a_cell_of_the_goals_build_and_says_so(toolbox: Toolbox) -> None:
    # The natural house: 9 planks short, the model asked mc-collect for oak_planks, and it dug
    # them out of the house; the goal's build is kept whoever writes the call.
    for body in scenario_body(BUILT, "keeper", toolbox):
        assert wait_for(lambda: body.bot.state().on_ground)
        body.executor.run_check = parse_check({"all": [_build(*HOUSE).as_data(), {"has_item": {"name": "oak_door"}}]}, "goal")
        body.executor.goal_check = parse_check({"has_item": {"name": "oak_planks", "count": 4}}, "need")  # the focus's
        taken = body.call("mc-collect", block="oak_planks", count=4)
        assert taken.code == "not_found" and "3 oak_planks in the goal's build not dug (the goal builds them)" in taken.reason
        assert [(d["position"]["x"], d["position"]["z"]) for d in taken.data["dug"]] == [(-4, 3)] and taken.data["kept"] == 3
        assert [body.bot.block_at(*cell) for cell in HOUSE] == ["oak_planks"] * 3
        body.teleport(0.5, 5, 0.5, "south")
        refused = body.call("mc-dig", forward=3)
        assert refused.code == "refused" and "oak_planks at (0, 5, 3) is a cell of the goal's build" in refused.reason
        assert body.bot.block_at(0, 5, 3) == "oak_planks"
        body.executor.run_check = None  # no build asked: the same block is dug
        assert body.ok("mc-dig", x=0, y=5, z=3)["gone"] and body.bot.block_at(0, 5, 3) == "air"


def test_a_run_on_the_tree_collects_three_logs_and_the_world_verifies_it(tmp_path: Path) -> None:
    trace, token = tmp_path / "trace.jsonl", new_token()
    done = mcagent("run", "--scenario", "tree", "--config", str(run_config(tmp_path)), "--port", "0",
                   "--llm", f"scripted:{COLLECT_POLICY}", "--max-steps", "2", "--trace", str(trace),
                   token=token, timeout_s=120)
    assert done.returncode == 0, transcript(done)
    assert "goal: Collect three oak logs.\n" in done.stdout
    assert "understood: 1. has_item oak_log 3 (the check given)" in done.stdout
    assert "outcome: success (verified: has_item oak_log 3 holds: 3 in the inventory)" in done.stdout
    assert read_trace(trace).end.outcome == "success"
    assert load_scenario("tree").success.describe() == "has_item oak_log 3"
    assert wait_until_gone(token, timeout_s=5) == []
