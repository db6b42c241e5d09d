"""Steering from chat: allowlisted players' commands run, everyone else is ignored and reported."""

from __future__ import annotations

from agent.bridge import connect
from agent.chat import ChatCommand, ChatCommander
from agent.server import ServerInfo
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
            assert wait_for(lambda: stops == ["boss"])
            assert [c.accepted for c in heard] == [False, True, True, True]
        finally:
            commander.close()
