"""After a run whose goal check has a blueprint: each of its cells, the block asked and what the
world holds, read in one bridge call (bridge/helpers/read-cells.js) and recorded in the trace as
`build_seen`, where the report draws the blueprint beside the world (agent/replay/build.py)."""

from __future__ import annotations

from agent.bridge import BotConnection, BridgeError
from agent.checks import Check
from agent.checks.model import Blueprint, Plan
from agent.planner.given import parts_of
from agent.trace import TraceWriter
from agent.trace.schema import BuildSeen


def record_builds(bot: BotConnection, check: Check | None, writer: TraceWriter) -> None:
    """One `build_seen` per blueprint among the check's parts; none when the world cannot be read
    (the bot gone): the report then draws no build, and the run's verdict already says why."""
    for part in parts_of(check):
        if isinstance(part, Blueprint):
            seen = read_build(bot, part.blueprint)
            if seen is not None:
                writer.add(seen)


def read_build(bot: BotConnection, plan: Plan) -> BuildSeen | None:
    """The plan's cells as the world holds them, in one round trip; None when the bridge cannot answer."""
    try:
        read = bot.call("readCells", plan.model_dump(mode="json"))
    except BridgeError:
        return None
    return BuildSeen(anchor=plan.anchor, cells=read["cells"])
