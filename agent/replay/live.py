"""Live replay: the recorded tool calls of a run, executed again in order against a server,
so a person can watch the same run in game or in the viewer. Steps whose new result differs
from the recorded one beyond a tolerance are reported as divergences.

What is compared follows what a result holds, not which tool made it:
- the status (success or failed) always;
- an `end` position (moves, goto) and a `position` (status, wait, respawn), within the tolerance;
- free distances and whether the sky is visible (observations), exactly.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict

from agent.bridge import BotConnection
from agent.mc.geometry import Vec3
from agent.tools import Executor

# How far, in blocks, a replayed position may land from the recorded one.
DEFAULT_TOLERANCE_BLOCKS = 0.5


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RecordedCall(_Model):
    """One tool call as a trace recorded it: the tool, its arguments, its uniform return."""

    tool: str
    args: dict[str, Any] = {}
    result: dict[str, Any]


class Divergence(_Model):
    index: int
    tool: str
    what: str
    recorded: Any
    replayed: Any

    def __str__(self) -> str:
        return f"call {self.index + 1} {self.tool}: {self.what} was {self.recorded!r}, now {self.replayed!r}"


class LiveReport(_Model):
    results: list[dict[str, Any]]
    divergences: list[Divergence]
    end_position: Vec3 | None


def replay_calls(
    executor: Executor, calls: list[RecordedCall], tolerance_blocks: float = DEFAULT_TOLERANCE_BLOCKS
) -> LiveReport:
    """Runs each call through the executor, in order, and compares its result with the recording."""
    results, divergences = [], []
    for i, call in enumerate(calls):
        new = executor.execute_action({"type": call.tool, **call.args}).as_dict()
        results.append(new)
        divergences += [Divergence(index=i, tool=call.tool, **d) for d in _differences(call.result, new, tolerance_blocks)]
    bot = executor.world
    end = bot.state().position if isinstance(bot, BotConnection) and bot.connected else None
    return LiveReport(results=results, divergences=divergences, end_position=end)


def _differences(recorded: dict[str, Any], replayed: dict[str, Any], tolerance: float) -> list[dict[str, Any]]:
    found = []
    if recorded.get("status") != replayed.get("status"):
        found.append({"what": "status", "recorded": recorded.get("status"), "replayed": replayed.get("status")})
    old, new = recorded.get("data"), replayed.get("data")
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return found
    for key in ("end", "position"):
        a, b = _point(old.get(key)), _point(new.get(key))
        if a and b and math.dist(a, b) > tolerance:
            found.append({"what": f"{key} (more than {tolerance:g} blocks apart)", "recorded": old[key], "replayed": new[key]})
    for key in ("free", "sky_visible"):
        if key in old and key in new and old[key] != new[key]:
            found.append({"what": key, "recorded": old[key], "replayed": new[key]})
    return found


def _point(value: Any) -> tuple[float, float, float] | None:
    if isinstance(value, dict) and all(isinstance(value.get(k), int | float) for k in "xyz"):
        return (value["x"], value["y"], value["z"])
    return None
