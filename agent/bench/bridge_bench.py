"""`mcagent bench bridge`: what one trip across the Python <-> Node bridge costs."""

from __future__ import annotations

from agent.bench.stats import Figure, measure
from agent.bridge import BotConnection, runtime, timeouts
from agent.bridge.models import BlockBox
from agent.config import AgentConfig
from agent.session import WorldOptions, bot_session

# The box both scans read: 9 x 5 x 9 = 405 blocks around the bot.
SCAN_RADIUS, SCAN_HALF_HEIGHT = 4, 2


def in_world(config: AgentConfig, world: WorldOptions, *, calls: int) -> tuple[list[Figure], bool]:
    """`run` on a bot joined where the config says."""
    with bot_session(config, world) as session:
        return run(session.bot, runtime.helpers(), calls=calls)


def run(bot: BotConnection, helpers, *, calls: int) -> tuple[list[Figure], bool]:
    """Figures for a no-op call, a state snapshot and both scans; and whether the two scans agree."""
    box = bot.scan_box(SCAN_RADIUS, SCAN_HALF_HEIGHT)
    vec3 = helpers.Vec3
    figures = [
        measure("no-op bridged call", lambda: helpers.ping(timeout=timeouts.CALL_S), calls=calls),
        measure("JSON state snapshot", bot.state, calls=calls),
        measure(f"block scan {_shape()}, one JS call", lambda: bot.scan_box(SCAN_RADIUS, SCAN_HALF_HEIGHT), calls=calls),
        measure(f"block scan {_shape()}, per block from Python", lambda: python_scan(bot, vec3, box), calls=calls),
    ]
    return figures, python_scan(bot, vec3, box) == box.names()


def python_scan(bot: BotConnection, vec3, box: BlockBox) -> list[str | None]:
    """The same scan as bridge/helpers/scan.js, one bridged blockAt per block."""
    raw = bot.bot
    o = box.origin
    names = []
    for dy in range(-box.half_height, box.half_height + 1):
        for dz in range(-box.radius, box.radius + 1):
            for dx in range(-box.radius, box.radius + 1):
                block = raw.blockAt(vec3(int(o.x) + dx, int(o.y) + dy, int(o.z) + dz), False)
                names.append(block.name if block else None)
    return names


def _shape() -> str:
    side = 2 * SCAN_RADIUS + 1
    return f"{side}x{2 * SCAN_HALF_HEIGHT + 1}x{side}"
