"""The say primitive in a world run reaches the game's chat: a player on the server hears the
bot, and `mcagent run` prints it too. The run is a child process, as a user's is."""

from __future__ import annotations

from pathlib import Path

from agent.bridge import connect
from agent.server import LocalServer, ServerSettings
from support.planning import FIXTURES, run_config
from support.procs import mcagent, new_token, transcript

SAY_POLICY = FIXTURES / "planner" / "say_policy.py"
MESSAGE = "hello from the planner"


def test_say_in_a_world_run_is_heard_in_the_games_chat_and_printed(tmp_path: Path):
    with LocalServer(ServerSettings(), port=0) as info, connect(port=info.port, username="listener") as player:
        mark = player.events.last_seq
        done = mcagent("run", "--goal", "say hello to the player", "--config", str(run_config(tmp_path)),
                       "--server", f"127.0.0.1:{info.port}", "--username", "talker", "--llm",
                       f"scripted:{SAY_POLICY}", "--tools", "say", "--max-steps", "1",
                       "--trace", str(tmp_path / "trace.jsonl"), token=new_token(), timeout_s=120)
        heard = player.events.wait_for("chat", timeout_s=5, after=mark, match=lambda e: e.username == "talker")
    assert done.returncode in (0, 1), transcript(done)
    assert heard.message == MESSAGE
    assert f"bot says: {MESSAGE}" in done.stdout, transcript(done)
