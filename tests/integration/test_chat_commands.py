"""Steering from chat: allowlisted players' commands run, everyone else is ignored and reported;
on a public server, only after the player whispered the secret."""

from __future__ import annotations

from collections.abc import Callable

from agent.bridge import BotConnection, connect
from agent.chat import ChatCommand, ChatCommander
from agent.server import LocalServer, ServerInfo, ServerSettings
from support.waiting import wait_for


def test_allowlisted_commands_run_and_others_are_refused(server: ServerInfo) -> None:
    stops, goals, heard = [], [], []
    with connect(port=server.port, username="steered") as agent, \
         connect(port=server.port, username="boss") as boss, \
         connect(port=server.port, username="stranger") as stranger:
        commander = ChatCommander(
            agent, ["boss"], on_stop=stops.append, on_goal=goals.append,
            status=lambda: "status: exploring, step 3", on_event=heard.append,
        )
        try:
            stranger.chat("!stop")
            assert wait_for(lambda: heard), "the stranger's command was never reported"
            assert heard[0] == ChatCommand(player="stranger", command="!stop", accepted=False, reason="not on the chat allowlist")
            assert stops == []

            mark = boss.events.last_seq
            boss.chat("!status")
            reply = boss.events.wait_for("chat", timeout_s=5, after=mark, match=lambda e: e.username == "steered")
            assert reply.message == "status: exploring, step 3"

            boss.chat("!goal dig down three blocks")
            assert wait_for(lambda: goals == ["dig down three blocks"])
            boss.chat("!stop")
            # A command acts (on_stop) before it is reported (on_event): wait for the report too.
            assert wait_for(lambda: stops == ["boss"] and len(heard) == 4), heard
            assert [c.accepted for c in heard] == [False, True, True, True]
        finally:
            commander.close()


SECRET = "blue-heron-42"


def _said_by(bot: BotConnection, speaker: str, message: str) -> Callable[[], bool]:
    return lambda: any(e.username == speaker and e.message == message for e in bot.events.events())


def test_a_public_server_ops_only_listed_names_and_commands_wait_for_the_secret() -> None:
    """--public's settings, on loopback: 'boss' is listed as an operator, 'stranger' is not."""
    with LocalServer(ServerSettings(operators=["boss"]), port=0, public=True) as server, \
         connect(port=server.port, username="steered") as agent, \
         connect(port=server.port, username="boss") as boss, \
         connect(port=server.port, username="stranger") as stranger:
        stranger.chat("/tp 0.5 150 0.5")
        stranger.chat("asked")  # boss hears it after the server handled the /tp before it
        assert wait_for(_said_by(boss, "stranger", "asked"))
        boss.chat("/tp 0.5 150 0.5")
        assert wait_for(lambda: boss.state().position.y > 140), "the listed operator was not teleported"
        stranger.chat("looked")  # stranger hears it after any move the server sent it before
        assert wait_for(_said_by(stranger, "stranger", "looked"))
        assert stranger.state().position.y < 100, "a player not listed could teleport"

        stops, heard = [], []
        commander = ChatCommander(
            agent, ["boss"], on_stop=stops.append, on_goal=lambda goal: None, status=lambda: "status",
            on_event=heard.append, secret=SECRET, secret_required=True,
        )
        try:
            mark = boss.events.last_seq
            boss.chat("!stop")
            reply = boss.events.wait_for("chat", timeout_s=5, after=mark, match=lambda e: e.username == "steered")
            assert reply.message == "boss: whisper the secret first: /tell steered !auth <secret>" and stops == []

            boss.chat(f"/tell steered !auth {SECRET}")
            assert wait_for(lambda: len(heard) == 2)
            assert heard[1] == ChatCommand(player="boss", command="!auth", accepted=True)
            boss.chat("!stop")
            assert wait_for(lambda: stops == ["boss"])
            stranger.chat("after")  # whatever the server sent stranger about the whisper came before
            assert wait_for(_said_by(stranger, "stranger", "after"))
            assert not any(SECRET in (e.message or "") for e in stranger.events.events())
        finally:
            commander.close()
