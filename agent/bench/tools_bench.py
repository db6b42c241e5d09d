"""`mcagent bench tools`: what the world tools cost, end to end through the executor."""

from __future__ import annotations

from agent.bench.stats import Figure, measure
from agent.bridge import BotConnection
from agent.tools import Executor
from agent.tools.result import ToolResult

RADII = (4, 8, 16)


def run(bot: BotConnection, executor: Executor, *, calls: int) -> list[Figure]:
    """mc-observe-blocks at each radius and mc-status through the executor, and the raw bridge call
    mc-observe-blocks makes, so the executor's and the tool's own overhead shows as the difference."""
    figures = [measure(f"mc-observe-blocks radius {r}", _tool(executor, "mc-observe-blocks", radius=r), calls=calls) for r in RADII]
    figures.append(measure("mc-status (waits one physics tick)", _tool(executor, "mc-status"), calls=calls))
    figures.append(measure("raw bridge observe radius 4 (no executor)", lambda: bot.call("observe", {"radius": 4}), calls=calls))
    return figures


def _tool(executor: Executor, name: str, **args: object):
    action = {"type": name, **args}

    def call() -> ToolResult:
        result = executor.execute_action(action)
        if not result.ok:
            raise RuntimeError(f"{name} failed during the benchmark: {result.reason}")
        return result

    return call
