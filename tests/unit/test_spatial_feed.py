"""Feeding the map: a tool that observes or moves surveys into the executor's map after its call,
and a survey that fails leaves the tool's own result standing."""

from __future__ import annotations

from types import SimpleNamespace

from pydantic import BaseModel

from agent.bridge import BotConnection, BridgeError
from agent.world.spatial import Kind, SpatialMemory, memory_of
from agent.world.toolkit import NoArgs, call, run_tool
from spatial_worlds import layer, survey

SEEN = survey((-2, 0, -2), (3, 3, 3), solid=layer(0, -2, 2, -2, 2), feet=(0, 1, 0))


class Pong(BaseModel):
    pong: bool


class ScriptedBot(BotConnection):
    """A bot whose bridge answers `ping` and `survey` from a script; no Node behind it."""

    def __init__(self, survey_reply):
        self.calls: list[str] = []
        self._survey_reply = survey_reply

    def call(self, action, args=None, *, timeout_s=0):
        self.calls.append(action)
        if action == "survey":
            return self._survey_reply()
        return {"pong": True}


def ping(executor, **kwargs):
    return run_tool({"executor": executor, **kwargs}, NoArgs, call("ping"), Pong, lambda p: "pong", feeds_map=True)


def failing_survey():
    raise BridgeError("survey: the bot is not spawned", code="not_spawned")


def test_a_feeding_tool_surveys_into_the_executors_map_and_counts_a_visit():
    bot = ScriptedBot(lambda: SEEN.model_dump(mode="json"))
    executor = SimpleNamespace(world=bot, world_map=None)
    assert ping(executor).ok and bot.calls == ["ping", "survey"]
    memory = memory_of(executor)
    assert memory is executor.world_map and memory.kind(0, 0, 0) == Kind.SOLID and memory.visits(0, 1, 0) == 1


def test_a_failed_survey_fails_nothing():
    executor = SimpleNamespace(world=ScriptedBot(failing_survey), world_map=SpatialMemory.open(None))
    result = ping(executor)
    assert result.ok and result.data == {"pong": True}
    assert executor.world_map.known_cells() == 0
