"""The bot, through the real bridge, on the real server: pose, looking, walking, chat, errors."""

from __future__ import annotations

import os

import pytest

from agent.bridge import BotConnection, BridgeError, runtime
from agent.bridge.models import PlayerPose
from support.observing import seen
from support.waiting import wait_for

# The server relays angles in 1/256 turns: 1.41 degrees a step.
RELAYED_ANGLE_TOLERANCE_DEG = 360 / 256
# Own angles read back after a look: mineflayer's physics rounds pitch slightly (set 20, read 19.95).
OWN_ANGLE_TOLERANCE_DEG = 0.1
HEADINGS = [(0, "south"), (90, "west"), (180, "north"), (-90, "east")]


def angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def observed(observer: BotConnection) -> PlayerPose | None:
    """The tester bot as the observer sees it; None until its entity is in view."""
    return seen(observer, "tester")


def test_reads_its_position_on_superflat(bot: BotConnection) -> None:
    state = wait_for(lambda: (s := bot.state()).on_ground and s)
    assert state.on_ground, "bot never landed"
    # superflat: bedrock at y=0, dirt y=1-3, grass y=4, so feet stand at y=5
    assert state.position.y == pytest.approx(5.0, abs=0.01)
    assert state.username == "tester" and state.version == "1.20.4"
    assert state.health > 0 and state.dimension == "overworld"


@pytest.mark.parametrize(("yaw", "facing"), HEADINGS)
def test_look_sets_angles_the_server_relays(bot: BotConnection, observer: BotConnection, yaw: float, facing: str) -> None:
    state = bot.look(yaw, 20)
    assert angle_diff(state.yaw_deg, yaw) < OWN_ANGLE_TOLERANCE_DEG
    assert state.pitch_deg == pytest.approx(20, abs=OWN_ANGLE_TOLERANCE_DEG)
    assert state.facing == facing

    def relayed(p: PlayerPose | None) -> bool:
        return bool(p) and angle_diff(p.yaw_deg, yaw) <= RELAYED_ANGLE_TOLERANCE_DEG and abs(p.pitch_deg - 20) <= RELAYED_ANGLE_TOLERANCE_DEG

    pose = wait_for(lambda: (p := observed(observer)) and relayed(p) and p)
    assert pose, f"observer never saw yaw {yaw}, pitch 20: {observed(observer)}"
    assert pose.facing == facing


def test_walking_forward_one_second_moves_the_bot_east(bot: BotConnection, observer: BotConnection) -> None:
    bot.look(-90, 0)  # east, +x
    before = bot.state().position
    moved = bot.hold(["forward"], 1.0)
    after = bot.state().position
    # ~4.3 blocks a second on flat ground (FIELD-NOTES); the lower bound allows for start-up.
    assert moved.displacement.x > 3.0
    assert abs(moved.displacement.z) < 0.05 and abs(moved.displacement.y) < 0.01
    assert moved.start.distance_to(before) < 0.01 and moved.end.distance_to(after) < 0.5
    seen = wait_for(lambda: (p := observed(observer)) and p.position.distance_to(after) < 0.5 and p)
    assert seen, "observer did not see the bot arrive"


def test_chat_comes_back_to_both_bots(bot: BotConnection, observer: BotConnection) -> None:
    mark_bot, mark_obs = bot.events.last_seq, observer.events.last_seq
    bot.chat("hello from the test suite")
    heard = bot.events.wait_for("chat", timeout_s=5, after=mark_bot, match=lambda e: e.message == "hello from the test suite")
    assert heard.username == "tester"
    relayed = observer.events.wait_for("chat", timeout_s=5, after=mark_obs, match=lambda e: e.username == "tester")
    assert relayed.message == "hello from the test suite"


def test_spawn_event_reached_python(bot: BotConnection) -> None:
    kinds = [e.kind for e in bot.events.events()]
    assert "spawn" in kinds and "end" not in kinds and "kicked" not in kinds


def test_calls_are_numbered_where_node_callbacks_never_reach(bot: BotConnection) -> None:
    # JSPyBridge takes a bot event whose id equals a pending call's as that call's reply; with
    # calls numbered from 1, a connect in a long test run once got a spawn event back (CI).
    from javascript import config

    bot.call("state")
    assert config.executor.i > runtime.REQUEST_IDS_FROM


def test_the_early_lifeline_is_set_for_the_bridge_alone(bot: BotConnection) -> None:
    # NODE_OPTIONS carried bridge/preload.js to the bridge's Node; servers started later must not get it.
    assert str(runtime.PRELOAD) not in os.environ.get("NODE_OPTIONS", "")


def test_bad_args_fail_with_a_coded_reason(bot: BotConnection) -> None:
    with pytest.raises(BridgeError, match="look: an argument is NaN, an infinity or an integer past 2") as e:
        bot.look(0, float("nan"))
    assert e.value.code == "bad_args"
    with pytest.raises(BridgeError, match="y must be an integer from -2048 to 2048") as e:
        bot.call("blockAt", {"x": 0, "y": 4096, "z": 0})
    assert e.value.code == "bad_args"


def test_unknown_action_names_the_known_ones(bot: BotConnection) -> None:
    with pytest.raises(BridgeError, match="known: state") as e:
        bot.call("fly")
    assert e.value.code == "unknown_action"


def test_js_scan_matches_the_world(bot: BotConnection) -> None:
    box = bot.scan_box(1, 1)  # 3 x 3 x 3 around the feet block
    layers = [box.names()[i * 9 : (i + 1) * 9] for i in range(3)]
    assert layers[0] == ["grass_block"] * 9  # below the feet
    assert layers[1] == ["air"] * 9 and layers[2] == ["air"] * 9
