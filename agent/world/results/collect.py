"""mc-collect's result (bridge/helpers/collect.js): blocks of a kind walked to, dug and picked
up, with what the inventory gained, counted before and after."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agent.mc.names import Item
from agent.world.results.digging import DigRun

CollectStop = Literal["completed", "needs_tool", "not_found", "unreachable", "fluid_ahead", "drop_ahead", "unbreakable",
                      "blocked", "fell", "timeout", "stopped", "disconnected"]


class CollectReport(DigRun):
    block: str
    asked: int = Field(description="blocks asked for")
    gained: dict[str, int] = Field(description="items the inventory holds more of than before, by name")
    steps: int = Field(description="blocks walked to and dug")
    dug_on_the_way: int = Field(0, description="blocks dug to reach buried ones (a staircase down to stone or ore)")
    stop_reason: CollectStop
    missing: list[Item] = Field([], description="needs_tool: the cheapest tool the bot does not carry that the "
                                                "kind needs to drop, or a way to a buried one to be dug")
