"""How the map is fed: one survey of the box around the bot, recorded, with a visit to the feet block."""

from __future__ import annotations

from typing import Any

from agent.bridge import BotConnection
from agent.world.spatial.memory import SpatialMemory
from agent.world.spatial.survey import Survey


def memory_of(executor: Any) -> SpatialMemory:
    """The executor's map (`executor.world_map`); a new in-memory one on first use when it has none
    (tests and `mcagent call` build executors without a run's map file)."""
    if executor.world_map is None:
        executor.world_map = SpatialMemory.open(None)
    return executor.world_map


def survey_into(bot: BotConnection, memory: SpatialMemory, radius: int = 8) -> Survey:
    """Surveys the box `radius` blocks each way around the feet block (the bridge's default height),
    records it in `memory` and counts a visit to the feet block. Raises BridgeError as bot.call does."""
    survey = Survey.model_validate(bot.call("survey", {"radius": radius}))
    memory.record(survey, standing=True)
    return survey
