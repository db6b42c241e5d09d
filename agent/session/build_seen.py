"""After a run whose goal check has a blueprint: each of its cells, the block asked and what the
world holds, read in one bridge call (bridge/helpers/read-cells.js) and recorded in the trace as
`build_seen`, where the report draws the blueprint beside the world (agent/replay/build.py)."""

from __future__ import annotations

from agent.bridge import BotConnection, BridgeError, timeouts
from agent.checks import Check
from agent.checks.model import Blueprint, Plan
from agent.planner.given import parts_of
from agent.trace import TraceWriter
from agent.trace.schema import BuildSeen

# Walking back to read a build the bot ended far from: near enough for its chunks (blocks), and
# how long to try (seconds).
BACK_RANGE, BACK_S = 16, 120


def record_builds(bot: BotConnection, check: Check | None, writer: TraceWriter) -> None:
    """One `build_seen` per blueprint among the check's parts; none when the world cannot be read
    (the bot gone): the report then draws no build, and the run's verdict already says why."""
    for part in parts_of(check):
        if isinstance(part, Blueprint):
            seen = read_build(bot, part.blueprint)
            if seen is not None:
                writer.add(seen)


def read_build(bot: BotConnection, plan: Plan) -> BuildSeen | None:
    """The plan's cells as the world holds them; None when the bridge cannot answer. The bot
    reads only the chunks near it: when a run ended far from the build (fetching logs), some
    cells read as not loaded, so the bot walks back first and reads again (a read, not a move
    the run made: it changes no block)."""
    seen = _read(bot, plan)
    if seen is not None and any(cell.held is None for cell in seen.cells):
        _walk_back(bot, plan)
        seen = _read(bot, plan)
    return seen


def _read(bot: BotConnection, plan: Plan) -> BuildSeen | None:
    try:
        read = bot.call("readCells", plan.model_dump(mode="json"))
    except BridgeError:
        return None
    return BuildSeen(anchor=plan.anchor, cells=read["cells"])


def _walk_back(bot: BotConnection, plan: Plan) -> None:
    """Near the plan's first cell, by walking only (no digging, no building)."""
    (x, y, z), _ = plan.cells()[0]
    args = {"x": x, "y": y, "z": z, "range": BACK_RANGE, "timeout_s": BACK_S, "allow_dig": False,
            "allow_build": False, "max_drop": 3}
    try:
        bot.call("goto", args, timeout_s=BACK_S + timeouts.CALL_S)
    except BridgeError:
        pass  # no way back: the cells not loaded stay unknown, never counted right
