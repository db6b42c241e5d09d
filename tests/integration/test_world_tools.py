"""The Minecraft world tools on the real server, checked against each scenario's geometry."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from agent.bridge import BotConnection, connect
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.server.scenario import scenario_names
from agent.infospace import Infospace
from agent.tools import Executor
from agent.tools.result import ToolResult
from support.geometry import World
from support.world_body import Body, scenario_body as _body
from support.waiting import wait_for

FACINGS = ["north", "east", "south", "west"]


@pytest.fixture(scope="module")
def room(toolbox) -> Iterator[Body]:
    yield from _body("room", "roomie", toolbox)


@pytest.fixture(scope="module")
def flat(toolbox) -> Iterator[Body]:
    yield from _body("flat", "walker", toolbox)


@pytest.mark.parametrize("name", scenario_names())
def test_every_scenario_builds_and_the_bot_spawns_where_the_file_says(name: str) -> None:
    scenario = load_scenario(name)
    with LocalServer(ServerSettings(), scenario=scenario) as info:
        assert info.scenario == name
        with connect(port=info.port, username="arrival") as bot:
            state = wait_for(lambda: (s := bot.state()).on_ground and s)
            spawn = scenario.spawn
            assert math.dist((state.position.x, state.position.y, state.position.z), (spawn.x, spawn.y, spawn.z)) < 0.01
            assert state.facing == spawn.facing
            world = World(scenario)
            for cell in list(world.changes)[:50]:  # the built blocks are really there
                assert bot.block_at(*cell) == world.changes[cell], cell


@pytest.mark.parametrize("facing", FACINGS)
def test_room_observation_matches_the_geometry_at_every_facing(room: Body, facing: str) -> None:
    room.teleport(0.5, 5, 0.5, facing)
    seen = room.ok("mc-observe-blocks", radius=4)
    feet = (0, 5, 0)
    assert seen["facing"] == facing
    assert seen["free"] == room.world.free(feet, facing, 4)
    assert seen["footing_ahead"] == room.world.block(*room.world.at(feet, facing, 1, 0, -1))
    assert seen["sky_visible"] is False and seen["open_terrain"] is False
    # the doorway is in the north wall: only the way north is open past the walls
    assert [d for d in ("forward", "back", "left", "right") if seen["free"][d] == 4] == [
        d for d, f in zip(("forward", "back", "left", "right"), _sides(facing)) if f == "north"
    ]


def _sides(facing: str) -> list[str]:
    """The world direction of forward, back, left and right for a facing."""
    i = FACINGS.index(facing)
    return [FACINGS[i], FACINGS[(i + 2) % 4], FACINGS[(i + 3) % 4], FACINGS[(i + 1) % 4]]


def test_walking_out_of_the_room_reaches_open_sky(room: Body) -> None:
    room.teleport(0.5, 5, 0.5, "north")
    moved = room.ok("mc-move", blocks=5)  # three blocks of room, the doorway, one outside
    assert math.floor(moved["end"]["z"]) == -5
    seen = room.ok("mc-observe-blocks")
    assert seen["sky_visible"] is True
    assert seen["free"] == room.world.free((0, 5, -5), "north", 4)


def test_moving_into_a_wall_reports_collision_with_near_zero_displacement(room: Body) -> None:
    room.teleport(3.5, 5, 0.5, "east")  # the east wall is the next block
    result = room.call("mc-move", forward=True, duration=1.0)
    assert not result.ok and result.code == "collision"
    d = result.data["displacement"]
    assert math.hypot(d["x"], d["z"]) < 0.3
    assert result.data["stop_reason"] == "collision"


def test_move_in_the_open_reports_what_a_fresh_status_reads(flat: Body) -> None:
    flat.teleport(0.5, 5, 0.5, "south")
    moved = flat.ok("mc-move", forward=True, duration=1.0)
    status = flat.ok("mc-status")
    end, now = moved["end"], status["position"]
    assert math.dist((end["x"], end["y"], end["z"]), (now["x"], now["y"], now["z"])) < 0.05
    assert moved["displacement"]["z"] > 3.0 and abs(moved["displacement"]["x"]) < 0.05
    assert moved["stop_reason"] == "completed" and status["vertical_state"] == "stable"


def test_blocks_3_ends_at_the_centre_of_the_block_3_ahead(flat: Body) -> None:
    flat.teleport(0.5, 5, 0.5, "west")
    moved = flat.ok("mc-move", blocks=3)
    end = moved["end"]
    assert math.hypot(end["x"] - (-2.5), end["z"] - 0.5) < 0.1, end
    assert (math.floor(end["x"]), math.floor(end["z"])) == (-3, 0)
    assert moved["facing"] == "west"


def test_dig_removes_and_place_puts_back_each_confirmed_by_a_fresh_look(flat: Body) -> None:
    flat.teleport(0.5, 5, 0.5, "south")
    assert flat.ok("mc-observe-blocks")["footing_ahead"] == "grass_block"
    dug = flat.ok("mc-dig", forward=1, up=-1)
    assert dug["block"] == "grass_block" and dug["gone"]
    after_dig = flat.ok("mc-observe-blocks")
    assert after_dig["footing_ahead"] == "air" and after_dig["drop_ahead"] == 1
    flat.bot.chat("/give walker dirt 1")  # set-up: something to place
    assert wait_for(lambda: any(i["name"] == "dirt" for i in flat.ok("mc-inventory")["items"]))
    placed = flat.ok("mc-place", item="dirt", forward=1, up=-1)
    assert placed["placed"] and placed["now"] == "dirt"
    after_place = flat.ok("mc-observe-blocks")
    assert after_place["footing_ahead"] == "dirt" and after_place["drop_ahead"] == 0


def test_place_refuses_the_bots_own_space(flat: Body) -> None:
    flat.teleport(0.5, 5, 0.5, "south")
    result = flat.call("mc-place", item="dirt", forward=0, up=0)
    assert not result.ok and result.code == "refused"
    assert "taken" in result.reason or "own space" in result.reason


def test_snap_lands_on_a_cardinal(flat: Body) -> None:
    flat.ok("mc-look", yaw=100, pitch=10)
    snapped = flat.ok("mc-look", snap=True)
    # mineflayer rounds its angles slightly (set 20, read 19.95): within a tenth of a degree
    assert snapped["facing"] == "west" and snapped["yaw_deg"] == pytest.approx(90, abs=0.1)
    assert snapped["pitch_deg"] == pytest.approx(10, abs=0.1)
    # snap after a target rounds that target; two targets conflict
    assert flat.ok("mc-look", yaw=-100, snap=True)["facing"] == "east"
    both = flat.call("mc-look", facing="east", yaw=3)
    assert not both.ok and both.code == "bad_args" and "only one of" in both.reason


def test_hazard_scenario_finds_the_lava_at_its_offset(toolbox) -> None:
    body = next(gen := _body("hazard", "careful", toolbox))
    try:
        seen = body.ok("mc-observe-blocks", radius=4)
        lava = [h for h in seen["hazards"] if h["kind"] == "lava"]
        assert [(h["forward"], h["right"], h["up"]) for h in lava] == [(3, 0, -1)]
        assert "lava at forward 3, down 1" in body.call("mc-observe-blocks").value
    finally:
        gen.close()


def test_bad_args_fail_naming_the_field(flat: Body) -> None:
    both = flat.call("mc-move", blocks=2, forward=True, duration=1.0)
    assert not both.ok and both.code == "bad_args" and "not both" in both.reason
    too_far = flat.call("mc-observe-blocks", radius=40)
    assert not too_far.ok and too_far.code == "bad_args" and "radius" in too_far.reason


def test_a_tool_after_the_bot_was_kicked_fails_with_the_reason(server, bot: BotConnection, toolbox) -> None:
    with connect(port=server.port, username="leaver") as victim:
        infospace = Infospace.open(":memory:")
        executor = Executor(toolbox, infospace, world=victim)
        assert executor.execute_action({"type": "mc-status"}).ok
        bot.chat("/kick leaver test over")
        assert wait_for(lambda: not victim.connected)
        result = executor.execute_action({"type": "mc-observe-blocks"})
        assert not result.ok and result.code == "disconnected" and "test over" in result.reason
        infospace.close()


def test_no_world_attached_is_a_clear_failure(toolbox) -> None:
    infospace = Infospace.open(":memory:")
    result = Executor(toolbox, infospace).execute_action({"type": "mc-status"})
    assert not result.ok and result.code == "disconnected" and "no Minecraft bot" in result.reason
    infospace.close()


def test_a_dead_bot_fails_with_dead_until_it_respawns(flat: Body) -> None:
    flat.bot.chat("/kill walker")  # set-up: an operator command kills the bot
    assert wait_for(lambda: flat.call("mc-status").code == "dead"), "the bot never died"
    result = flat.call("mc-move", forward=True, duration=0.5)
    assert not result.ok and result.code == "dead" and "respawn" in result.reason
    back = flat.ok("mc-respawn")
    assert back["respawned"] is True and back["health"] > 0
    assert flat.ok("mc-status")["health"] > 0
