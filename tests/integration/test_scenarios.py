"""The shipped scenarios on the real server: each builds, the bot spawns where the file says
(as written, and turned by an eval seed where the turn reaches past its boxes), carries the
scenario's inventory, and is not already done: the success check is false at the spawn. One
server per scenario and seed, in turn."""

from __future__ import annotations

import functools
import math
from collections import Counter, deque
from pathlib import Path

import pytest

from agent.bridge import connect
from agent.checks import evaluate
from agent.checks.model import (All, AnyOf, Avoided, Blueprint, Check, ContainerHas, FeetYAtLeast, NearPlayer, HasItem, NearBlock, Not, Outside, SkyVisible,
                                StandingOnGround, Within)
from agent.mc.gamedata import block_drops
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.server.local_server import ServerError
from agent.world.crafting_plan import plan
from agent.server.scenario import Scenario, scenario_names
from support.geometry import World, at_spawn
from support.waiting import wait_for

# Seed 0 is the file as written; seed 5 turns the world a quarter and mirrors it.
SEEDS = [0, 5]


@functools.cache
def _shipped(name: str) -> Scenario:
    """A shipped scenario, its file read once: each worker collecting this module read every file
    seven times over for the lists below (348 reads, a second of its collection)."""
    return load_scenario(name)


# What tests/unit/test_scenario_model.py turns for every scenario under seeds 1-8 (boxes, the
# spawn, the success check), and what the server builds nothing of (words, the other checks,
# inventories, the game mode).
TURNED_IN_UNIT_TESTS = {"name", "description", "spawn", "game_mode", "boxes", "goal", "success", "judge",
                        "milestones", "inventory", "inventories"}


def _turned_past_boxes(name: str) -> bool:
    """Whether a seed turns more of the scenario than the unit tests do (a world of boxes turned
    is built by the same server code as the file as written): today block states, chests,
    structures, generated terrain, a walker's path; a field added later counts too."""
    return bool(set(_shipped(name).model_dump(exclude_defaults=True)) - TURNED_IN_UNIT_TESTS)


# Scenarios whose way out needs more than walking: digging (sealed, and the held-out bunker and
# well) or placing blocks (deep-pit).
NOT_BY_WALKING = ["sealed", "deep-pit", "bunker", "well"]
# Built on generated terrain, which the walk below does not model (test_mc_find walks one).
ON_TERRAIN = [n for n in scenario_names() if _shipped(n).terrain is not None]
# Every scenario as written, and turned where the turn reaches past its boxes: a server each.
CASES = [(name, seed) for name in scenario_names() for seed in SEEDS if seed == 0 or _turned_past_boxes(name)]


def _counts(items: list[dict]) -> Counter:
    counts: Counter = Counter()
    for item in items:
        counts[item["name"]] += item["count"]
    return counts


@pytest.mark.parametrize(("name", "seed"), CASES, ids=[f"{n}-seed{s}" for n, s in CASES])
def test_scenario_builds_spawns_equips_and_is_not_already_solved(name: str, seed: int) -> None:
    scenario = load_scenario(name).transformed(seed)
    with LocalServer(ServerSettings(), port=0, scenario=scenario) as info:
        assert info.scenario == name
        with connect(port=info.port, username="arrival") as bot:
            state = wait_for(lambda: (s := bot.state()).on_ground and s)
            assert state, "the bot never stood on the ground"
            spawn = scenario.spawn
            assert at_spawn(state.position.x, state.position.y, state.position.z, spawn), state.position
            assert state.facing == spawn.facing
            world = World(scenario)
            cells = list(world.changes)
            for cell in cells[:: max(1, len(cells) // 40)]:  # a spread of the built blocks
                assert bot.block_at(*cell) == world.changes[cell], cell
            wanted = _counts([{"name": i.name, "count": i.count} for i in scenario.inventory])
            assert wait_for(lambda: _counts(bot.call("inventory")["items"]) == wanted), bot.call("inventory")
            if scenario.success is not None:
                verdict = evaluate(bot, scenario.success)
                assert not verdict.holds, f"{name} seed {seed} is solved at the spawn: {verdict.detail}"


def test_every_eval_scenario_states_a_goal_and_a_check() -> None:
    with_goal = [n for n in scenario_names() if load_scenario(n).success is not None]
    assert len(with_goal) >= 12
    for name in with_goal:
        assert load_scenario(name).goal, name


def test_deep_pit_hands_out_its_dirt() -> None:
    assert [(i.name, i.count) for i in load_scenario("deep-pit").inventory] == [("dirt", 16)]


def test_an_unknown_item_stops_the_start_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\ndescription: x\nspawn: {x: 0.5, y: 5, z: 0.5}\ninventory: [{name: dirt_sword, count: 1}]\n")
    with pytest.raises(ServerError, match=r"scenario bad: unknown item 'dirt_sword'"):
        with LocalServer(ServerSettings(), port=0, scenario=load_scenario(str(path))):
            pass


# --- solvable by walking: a path over the scenario's blocks (no server) ---------------------


def _holds(check: Check, feet: tuple[int, int, int], world: World) -> bool:
    """The check at a standing feet cell (its centre), from the geometry model."""
    if isinstance(check, All):
        return all(_holds(c, feet, world) for c in check.all)
    if isinstance(check, AnyOf):
        return any(_holds(c, feet, world) for c in check.any)
    if isinstance(check, Not):
        return not _holds(check.not_, feet, world)
    if isinstance(check, SkyVisible):
        return world.sky_visible(feet)
    if isinstance(check, FeetYAtLeast):
        return feet[1] >= check.feet_y_at_least
    if isinstance(check, StandingOnGround):
        return True
    if isinstance(check, Outside):
        box = check.outside
        return not all(min(a, b) <= v <= max(a, b) for v, a, b in zip(feet, box.from_, box.to))
    if isinstance(check, Within):
        w = check.within
        return math.dist((feet[0] + 0.5, feet[1], feet[2] + 0.5), (w.x, w.y, w.z)) <= w.distance
    if isinstance(check, Avoided):
        return "air" not in check.avoided  # the walk below passes through air cells only
    if isinstance(check, NearBlock):
        near = check.near_block
        return any(block == near.block and math.dist((feet[0] + 0.5, feet[1], feet[2] + 0.5), (x + 0.5, y + 0.5, z + 0.5))
                   <= near.distance for (x, y, z), block in world.changes.items())
    raise AssertionError(f"no model for {check.describe()}")


def _walk_out(scenario: Scenario) -> tuple[int, int, int] | None:
    """The first standing cell, breadth first, where the success check holds, moving as a player
    does without digging or placing: level, one block up (room to jump), or down at most 3."""
    world = World(scenario)

    def air(x: int, y: int, z: int) -> bool:
        return world.block(x, y, z) == "air"

    def stand(x: int, y: int, z: int) -> bool:
        return not world.passable(x, y - 1, z) and air(x, y, z) and air(x, y + 1, z)

    start = (math.floor(scenario.spawn.x), round(scenario.spawn.y), math.floor(scenario.spawn.z))
    assert stand(*start), f"the spawn {start} is not a place to stand"
    seen, queue = {start}, deque([start])
    while queue:
        x, y, z = queue.popleft()
        if _holds(scenario.success, (x, y, z), world):
            return x, y, z
        for nx, nz in ((x + 1, z), (x - 1, z), (x, z + 1), (x, z - 1)):
            if abs(nx) > 48 or abs(nz) > 48:
                continue
            steps = [(nx, y, nz)] if stand(nx, y, nz) else []
            if air(x, y + 2, z) and stand(nx, y + 1, nz):
                steps.append((nx, y + 1, nz))
            for drop in (1, 2, 3):
                if air(nx, y + 1, nz) and all(air(nx, y - k, nz) for k in range(drop)) and stand(nx, y - drop, nz):
                    steps.append((nx, y - drop, nz))
                    break
            for step in steps:
                if step not in seen:
                    seen.add(step)
                    queue.append(step)
    return None


# Scenarios with a task (a success check); the others (ledge, buried-fluids) are set-ups for tool tests.
TASKS = [n for n in scenario_names() if _shipped(n).success is not None]
# Tasks of getting things: their check is the inventory, not a place. In a natural world what
# there is to get is generated, not in the file (tests/integration/test_natural_world.py).
# A team's task: each player carries half of what it takes (docs/teams.md), so no one bot holds enough.
TEAM_TASKS = {"ingot-each"}
COLLECTING = [n for n in TASKS if isinstance(_shipped(n).success, HasItem) and n not in TEAM_TASKS
              and getattr(_shipped(n).terrain, "generator", None) != "natural"]


@pytest.mark.parametrize("name", sorted(TEAM_TASKS))
def test_a_team_task_needs_what_two_players_carry_and_no_less(name: str) -> None:
    scenario = load_scenario(name)
    wanted, near = scenario.success.has_item, set(World(scenario).changes.values())
    one = {i.name: i.count for i in scenario.inventory}
    alone, together = plan(wanted.name, wanted.count, one, near), plan(wanted.name, wanted.count,
                                                                     {k: 2 * n for k, n in one.items()}, near)
    lacking = [s for s in alone.steps if s.action == "collect" and _dropping(scenario, s.item) < s.count]
    assert lacking and not together.unobtainable and {s.action for s in together.steps} == {"craft"}, (alone, together)


@pytest.mark.parametrize("name", COLLECTING)
def test_a_collecting_task_holds_enough_of_what_it_asks_for(name: str) -> None:
    scenario = load_scenario(name)
    wanted = scenario.success.has_item
    if _dropping(scenario, wanted.name) + _in_chests(scenario, wanted.name) < wanted.count:
        _a_crafting_task_holds_what_its_recipe_tree_needs(scenario, wanted)


def _a_crafting_task_holds_what_its_recipe_tree_needs(scenario, wanted) -> None:
    """An item no block drops (a pickaxe): the craft planner finds a way from the scenario's own
    blocks and inventory, and the world holds enough of each material it digs."""
    held = {i.name: i.count for i in scenario.inventory}
    near = set(World(scenario).changes.values())
    steps = plan(wanted.name, wanted.count, held, near)
    assert steps.unobtainable == [] and steps.steps
    for step in (s for s in steps.steps if s.action == "collect"):
        assert _dropping(scenario, step.item) >= step.count, step


def _dropping(scenario, item: str) -> int:
    """Blocks the scenario builds that drop `item` when dug."""
    drops = block_drops()
    built = list(World(scenario).changes.values()) + [b.block for st in scenario.structures for b in st.blocks]
    boxed = [box for st in scenario.structures for box in st.boxes]
    return sum(item in drops[block] for block in built) + sum(box.volume() for box in boxed if item in drops[box.block])


def _in_chests(scenario, item: str) -> int:
    chests = scenario.chests + [c for st in scenario.structures for c in st.chests]
    return sum(i.count for chest in chests for i in chest.items if i.name == item)


# Tasks of storing: their check is a chest's contents.
STORING = [n for n in TASKS if isinstance(_shipped(n).success, ContainerHas)]


@pytest.mark.parametrize("name", STORING)
def test_a_storing_task_gives_what_its_chest_must_hold_and_the_chest(name: str) -> None:
    scenario = load_scenario(name)
    wanted = scenario.success.container_has
    assert _counts([i.model_dump() for i in scenario.inventory])[wanted.name] >= wanted.count
    assert World(scenario).block(*wanted.at) == "chest"


# Tasks of building: their check is a blueprint.
BUILDING = [n for n in TASKS if isinstance(_shipped(n).success, Blueprint)]


@pytest.mark.parametrize("name", BUILDING)
def test_a_building_task_gives_the_blocks_its_blueprint_needs_on_empty_cells(name: str) -> None:
    scenario = load_scenario(name)
    world, needed = World(scenario), Counter(block for _, block in scenario.success.blueprint.cells())
    assert all(world.block(*cell) == "air" for cell, _ in scenario.success.blueprint.cells())
    assert all(_counts([i.model_dump() for i in scenario.inventory])[block] >= n for block, n in needed.items())


# Tasks of keeping up with a player: their check is where the walker is.
FOLLOWING = [n for n in TASKS if isinstance(_shipped(n).success, NearPlayer)]


@pytest.mark.parametrize("name", FOLLOWING)
def test_a_following_task_has_its_walker_and_the_walker_walks_its_path(name: str) -> None:
    scenario = load_scenario(name)
    walker = scenario.walker
    assert walker is not None and walker.name == scenario.success.near_player.name
    with LocalServer(ServerSettings(), port=0, scenario=scenario) as info:
        with connect(port=info.port, username="watcher") as bot:
            assert wait_for(lambda: bot.state().on_ground)
            start = bot.call("playerPose", {"username": walker.name})["position"]
            assert math.dist((start["x"], start["z"]), (walker.path[0][0] + 0.5, walker.path[0][2] + 0.5)) < 0.5
            end = walker.path[-1]
            assert wait_for(lambda: math.dist(_pose_xz(bot, walker.name), (end[0] + 0.5, end[2] + 0.5)) < 1,
                            timeout_s=walker.delay_s + 20)


def _pose_xz(bot, name: str) -> tuple[float, float]:
    p = bot.call("playerPose", {"username": name})["position"]
    return p["x"], p["z"]


@pytest.mark.parametrize("name", [n for n in TASKS if n not in NOT_BY_WALKING + ON_TERRAIN + COLLECTING + BUILDING + STORING
                                  + FOLLOWING + sorted(TEAM_TASKS)])
def test_the_way_out_can_be_walked(name: str) -> None:
    base = load_scenario(name)
    for seed in SEEDS:
        assert _walk_out(base.transformed(seed)) is not None, f"{name} seed {seed}: no walking path to where the check holds"


@pytest.mark.parametrize("name", sorted(NOT_BY_WALKING))
def test_the_dig_and_build_scenarios_cannot_be_walked(name: str) -> None:
    assert _walk_out(load_scenario(name)) is None
