"""`mcagent bench tools`: what the world tools cost, end to end through the executor."""

from __future__ import annotations

import numpy as np

from agent.bench.stats import Figure, measure
from agent.bridge import BotConnection, connect
from agent.checks import parse_check
from agent.config import AgentConfig
from agent.infospace import Infospace
from agent.mc.geometry import BlockPos
from agent.server import LocalServer, ServerSettings, load_scenario
from agent.session import WorldOptions, bot_session
from agent.tools import Executor, ToolSource, load_toolbox
from agent.tools.result import ToolResult
from agent.world.spatial import SpatialMemory, Survey, map_view, next_target

RADII = (4, 8, 16)
# mc-collect digs what it times: a world of its own with 81 sand blocks (server-config/scenarios).
COLLECT_SCENARIO = "sandfield"
COLLECT_CALLS = 30


def in_world(config: AgentConfig, world: WorldOptions, sources: list[ToolSource], *, calls: int) -> list[Figure]:
    """`run` on a bot joined where the config says, with the tools of `sources`; on a server of
    one's own, mc-collect's figures too (a server of one's own keeps its blocks)."""
    infospace = Infospace.open(":memory:")
    try:
        with bot_session(config, world) as session:
            figures = run(session.bot, Executor(load_toolbox(sources), infospace, world=session.bot), calls=calls)
            if config.server.kind != "remote":
                figures += _collect_apart(Executor(load_toolbox(sources), infospace), calls=calls)
    finally:
        infospace.close()
    return figures


def _collect_apart(executor: Executor, *, calls: int) -> list[Figure]:
    """mc-collect uses up what it collects: it is timed on a local server of its own, a field of
    sand, with a second bot on the same bridge."""
    scenario = load_scenario(COLLECT_SCENARIO)
    with LocalServer(ServerSettings(), scenario=scenario) as info, connect(port=info.port, username="collector") as bot:
        executor.world = bot
        return collect_figures(executor, calls=min(calls, COLLECT_CALLS))


def run(bot: BotConnection, executor: Executor, *, calls: int) -> list[Figure]:
    """mc-observe-blocks at each radius, mc-status, mc-map, mc-find and mc-explore through the executor, and
    the raw bridge calls they make, so the executor's and the tool's own overhead shows as the
    difference; and mc-map's and mc-explore's own costs on a map of 10,000 cells, without the world."""
    figures = [measure(f"mc-observe-blocks radius {r}", _tool(executor, "mc-observe-blocks", radius=r), calls=calls) for r in RADII]
    figures.append(measure("mc-status (waits one physics tick)", _tool(executor, "mc-status"), calls=calls))
    figures.append(measure("raw bridge observe radius 4 (no executor)", lambda: bot.call("observe", {"radius": 4}), calls=calls))
    figures += [measure(f"mc-map radius {r} (survey + map)", _tool(executor, "mc-map", radius=r), calls=calls) for r in (8, 16)]
    figures.append(measure("raw bridge survey radius 8 (what observing and moving tools add)",
                           lambda: bot.call("survey", {"radius": 8}), calls=calls))
    figures.append(measure("mc-find stone radius 16 (walks searched to the nearest 3)",
                           _tool(executor, "mc-find", blocks=["stone"], radius=16), calls=calls))
    raw_find = {"blocks": ["stone"], "items": False, "players": False, "radius": 16, "count": 5}  # all mc-find sends
    figures.append(measure("raw bridge find stone radius 16 (no executor)", lambda: bot.call("find", raw_find), calls=calls))
    figures.append(map_figure(calls=calls))
    # The first (warm-up) call walks to where the check holds; the timed ones find it holding.
    figures.append(measure("mc-explore, goal already holding (check + survey + report)",
                           _tool(executor, "mc-explore", check={"sky_visible": True}), calls=calls))
    figures.append(target_figure(calls=calls))
    return figures


def collect_figures(executor: Executor, *, calls: int) -> list[Figure]:
    """mc-collect of one sand block at a time, each the nearest left of the sandfield: the walk,
    the dig (0.75 s by hand), the drop walked onto and the inventory counted before and after."""
    return [measure("mc-collect 1 sand (walk, dig by hand, pick up; sandfield)",
                    _tool(executor, "mc-collect", block="sand", count=1), calls=calls, warmup=2)]


def map_figure(*, calls: int) -> Figure:
    """mc-map's Python part alone (frontiers, walking moves, picture) at radius 16 on a map of
    10,890 known cells: what the tool costs over its survey (the issue's target: under 5 ms p50
    with 10,000 known cells)."""
    memory = SpatialMemory.open(None)
    memory.record(plain_with_pillars(16))
    feet = BlockPos(x=0, y=0, z=0)
    return measure(f"mc-map without its survey, radius 16, {memory.known_cells():,} known cells",
                   lambda: map_view(memory, feet, "north", 16), calls=calls)


def target_figure(*, calls: int) -> Figure:
    """mc-explore's decision alone: where to go next (walking moves, frontiers, the check at each
    reachable cell) on the same 10,890-cell map, with a check that holds nowhere in it."""
    memory = SpatialMemory.open(None)
    memory.record(plain_with_pillars(16))
    nowhere = parse_check({"feet_y_at_least": 100}, "check")
    return measure(f"mc-explore's next target, {memory.known_cells():,} known cells",
                   lambda: next_target(memory, (0, 0, 0), nowhere, set(), radius=24, max_drop=3), calls=calls)


def plain_with_pillars(radius: int) -> Survey:
    """A survey of open ground around the feet block (0, 0, 0): a floor at y = -1, a pillar two
    blocks high every fourth block, free air up to y = 8 and unknown ground below the floor."""
    size = (2 * radius + 1, 13, 2 * radius + 1)
    kinds = np.full(size, ord("."), dtype=np.uint8)
    kinds[:, :3, :] = ord("?")
    kinds[:, 3, :] = ord("#")
    kinds[2::4, 4:6, 2::4] = ord("#")
    return Survey(origin=BlockPos(x=-radius, y=-4, z=-radius), size=size, cells=kinds.tobytes().decode("ascii"),
                  sky_from=[-4] * (size[0] * size[2]), feet=BlockPos(x=0, y=0, z=0), facing="north")


def _tool(executor: Executor, name: str, **args: object):
    action = {"type": name, **args}

    def call() -> ToolResult:
        result = executor.execute_action(action)
        if not result.ok:
            raise RuntimeError(f"{name} failed during the benchmark: {result.reason}")
        return result

    return call
