"""What holds for every Minecraft world tool on the real server: bad arguments name the field,
and a kicked, absent or dead bot fails with a code to act on. Each tool's own tests are in
test_mc_<tool>.py; every scenario's build and spawn are in test_scenarios.py."""

from __future__ import annotations

from agent.bridge import BotConnection, connect
from agent.infospace import Infospace
from agent.tools import Executor
from support.waiting import wait_for
from support.world_body import Body


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


def test_a_dead_bot_fails_with_dead_until_it_respawns(server, toolbox) -> None:
    # A bot of its own on the session server, not a shared body: after a respawn the bot's
    # physics stays still (on_ground false, a /tp never lands), so a later teleport would fail.
    with connect(port=server.port, username="mortal") as mortal:
        infospace = Infospace.open(":memory:")
        executor = Executor(toolbox, infospace, world=mortal)
        try:
            mortal.chat("/kill mortal")  # set-up: an operator command kills the bot
            assert wait_for(lambda: executor.execute_action({"type": "mc-status"}).code == "dead"), "the bot never died"
            result = executor.execute_action({"type": "mc-move", "forward": True, "duration": 0.5})
            assert not result.ok and result.code == "dead" and "respawn" in result.reason
            back = executor.execute_action({"type": "mc-respawn"})
            assert back.ok and back.data["respawned"] is True and back.data["health"] > 0
            assert executor.execute_action({"type": "mc-status"}).data["health"] > 0
        finally:
            infospace.close()
