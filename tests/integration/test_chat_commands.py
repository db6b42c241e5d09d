"""Steering from chat: allowlisted players' commands run, everyone else is ignored and reported;
on a public server, only after the player whispered the secret. A real run asks back about a
goal said in chat that it understood only in part, and takes it on the player's "yes"."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from agent.bridge import BotConnection, connect
from agent.chat import ChatCommand, ChatCommander
from agent.server import LocalServer, ServerInfo, ServerSettings
from agent.trace import TraceError, read_trace
from agent.trace.schema import Chat, ChatGoal, GoalAdded, RunStart
from support.planning import NOTE_POLICY, run_config
from support.procs import env_with_token, interruptible, mcagent, new_token, transcript, wait_until_gone
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
            # The goal's turn is reported beside its command (a GoalExchange).
            commands = lambda: [c for c in heard if isinstance(c, ChatCommand)]  # noqa: E731
            assert wait_for(lambda: stops == ["boss"] and len(commands()) == 4), heard
            assert [c.accepted for c in commands()] == [False, True, True, True]
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


PARTLY = "get 3 oak logs and dance"
# How long a real run may take to reach its first step, and to hear and answer a line.
RUN_STARTS_S, ANSWERED_S = 60, 30


def _events(trace: Path) -> list:
    """The events written so far: none before the run opened its trace and wrote a line."""
    try:
        return read_trace(trace).events
    except TraceError:
        return []


def test_a_goal_understood_in_part_is_asked_back_and_taken_on_yes(server: ServerInfo, tmp_path: Path) -> None:
    """A run that keeps notes; an allowlisted player calls the bot by name with a goal it
    understands only in part: it answers with what it understood and what not, and asks; on
    "yes" the run takes what was understood as its new goal, and the trace keeps both turns."""
    trace, token = tmp_path / "trace.jsonl", new_token()
    config = run_config(tmp_path, "username: scout\nchat_allowlist: [chief]\n")
    with (tmp_path / "out.txt").open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "run", "--goal", "keep notes of what you see", "--config", str(config),
             "--server", f"127.0.0.1:{server.port}", "--llm", f"scripted:{NOTE_POLICY}", "--tools", "create-note",
             "--max-steps", "1000", "--trace", str(trace)],
            stdout=out, stderr=subprocess.STDOUT, text=True, env=env_with_token(token), stdin=subprocess.DEVNULL,
            preexec_fn=interruptible,
        )
        try:
            # The commander listens from before the run's start (agent/session/watching.py).
            assert wait_for(lambda: any(isinstance(e, RunStart) for e in _events(trace)), timeout_s=RUN_STARTS_S)
            with connect(port=server.port, username="chief") as chief:
                mark = chief.events.last_seq
                chief.chat(f"scout, {PARTLY}")
                asked = chief.events.wait_for("chat", timeout_s=ANSWERED_S, after=mark,
                                              match=lambda e: e.username == "scout")
                assert asked.message == ("chief: I'd get 3 oak logs; I don't know what 'dance' is; "
                                         "say yes to go, or say it another way")
                chief.chat("yes")
                added = wait_for(lambda: [e for e in _events(trace) if isinstance(e, GoalAdded)], timeout_s=ANSWERED_S)
                assert [e.goal for e in added] == ["get 3 oak logs"], added
                chief.chat("!stop")
                assert proc.wait(timeout=ANSWERED_S) == 1  # stopped: the goal was neither reached nor claimed
        finally:
            proc.kill()
    events = read_trace(trace).events
    turns = [(e.player, e.said, e.outcome, e.goal) for e in events if isinstance(e, ChatGoal)]
    assert turns == [("chief", PARTLY, "asked", None), ("chief", "yes", "started", "get 3 oak logs")]
    assert any(isinstance(e, Chat) and e.username == "scout" and e.message == "new goal from chief: get 3 oak logs"
               for e in events)
    assert read_trace(trace).end.outcome == "stopped"
    shown = mcagent("replay", str(trace), token=token)
    assert shown.returncode == 0, transcript(shown)
    assert f'chat goal from chief (chat): "{PARTLY}" -> asked: chief: I\'d get 3 oak logs' in shown.stdout
    assert 'chat goal from chief (chat): "yes" -> started: get 3 oak logs' in shown.stdout
    assert wait_until_gone(token, timeout_s=5) == []
