"""`mcagent demo`: the main job. Until the planner lands it starts the local server,
connects the bot, prints its pose and the world around it, and exits."""

from __future__ import annotations

import argparse

from agent.cli.parser import add_config_flags, load_from_args
from agent.cli.serving import add_server_flags, bot_session
from agent.world_view import MAP_CHARS, block_counts, top_down

# The box the demo describes: 9 x 5 x 9 blocks around the bot.
VIEW_RADIUS, VIEW_HALF_HEIGHT = 4, 2


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="start the local server, connect the bot and show what it sees")
    add_config_flags(p, "--port", "--username", "--version")
    add_server_flags(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = load_from_args(args).config
    config = config.model_copy(update={"server": config.server.model_copy(update={"kind": "local"})})
    with bot_session(config, args) as session:
        info = session.server
        print(f"local server: Minecraft {info.version} at {session.address} ({info.generator}, seed {info.seed})")
        _describe(session.bot)
    return 0


def _describe(bot) -> None:
    state = bot.state()
    p = state.position
    print(f"bot {state.username} at x={p.x:.2f} y={p.y:.2f} z={p.z:.2f}, facing {state.facing} "
          f"(yaw {state.yaw_deg:.1f} deg, pitch {state.pitch_deg:.1f} deg), health {state.health:g}, food {state.food:g}")
    box = bot.scan_box(VIEW_RADIUS, VIEW_HALF_HEIGHT)
    counts = ", ".join(f"{name} {n}" for name, n in block_counts(box))
    print(f"blocks within {VIEW_RADIUS} horizontally and {VIEW_HALF_HEIGHT} vertically: {counts}")
    legend = " ".join(f"{c}={name or 'unloaded'}" for name, c in MAP_CHARS.items())
    print(f"ground under the bot (north up, @ = bot; {legend}, #=other):")
    for row in top_down(box, dy=-1):
        print(f"  {row}")
