"""The say primitive in a world run reaches the game's chat: a player on the server hears the bot."""

from __future__ import annotations

from pathlib import Path

from agent.bridge import connect
from agent.config import AgentConfig
from agent.planner import PlannerOptions
from agent.server import LocalServer, ServerSettings
from agent.session import RunRequest, WorldOptions, plan_in_world
from agent.tools import standard_sources
from support.planning import FIXTURES

SAY_POLICY = FIXTURES / "planner" / "say_policy.py"


def test_say_in_a_world_run_is_heard_in_the_games_chat_and_by_the_caller(tmp_path: Path):
    printed: list[str] = []
    with LocalServer(ServerSettings(), port=0) as info, connect(port=info.port, username="listener") as player:
        mark = player.events.last_seq
        config = AgentConfig(username="talker", llm=f"scripted:{SAY_POLICY}", infospace=tmp_path / "notes.db",
                             server={"kind": "remote", "port": info.port})
        request = RunRequest(config=config, tool_sources=standard_sources("minecraft", []), world=WorldOptions(),
                             goal="say hello to the player", options=PlannerOptions(max_steps=1, tools=["say"]),
                             trace=tmp_path / "trace.jsonl", on_say=printed.append)
        plan_in_world(request)
        heard = player.events.wait_for("chat", timeout_s=5, after=mark, match=lambda e: e.username == "talker")
    assert heard.message == "hello from the planner"
    assert printed == ["hello from the planner"]
