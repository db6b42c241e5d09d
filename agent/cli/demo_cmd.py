"""`mcagent demo`: the main job, end to end. It starts the local server in the cave scenario,
connects the bot, shows where it stands, and lets the planner, on the embedded llama.cpp
model, run explore-area toward the scenario's goal, "explore the area until you find open
sky". The scenario's success check judges the run: the outcome says whether the world agrees,
and the closing line is the check's verdict on where the bot ended."""

from __future__ import annotations

import argparse

from agent.cli.parser import add_config_flags, add_viewer_flags, load_from_args
from agent.cli.run_cmd import run_and_print
from agent.goals import Understanding
from agent.cli.serving import add_server_flags, world_options
from agent.cli.tool_flags import add_tools_flags
from agent.config import LoadedConfig
from agent.planner import PlannerOptions
from agent.planner.presets import EXPLORE_SCENARIO, EXPLORE_TOOLS
from agent.session import WorldSession
from agent.session.goal import trace_path
from agent.world_view import MAP_CHARS, block_counts, top_down

# The box the demo describes first: 9 x 5 x 9 blocks around the bot.
VIEW_RADIUS, VIEW_HALF_HEIGHT = 4, 2
# Two method calls of 10 steps fit SmolLM2's 8,192-token context (two of 12 filled it at the 23rd
# step). A method that ends without reaching the goal is what leads to the second.
DEMO_OPTIONS = PlannerOptions(max_steps=2, method_max_steps=10, tools=EXPLORE_TOOLS)
DEMO_LLM = "llamacpp"
# A demo that ran to its end succeeded as a demo, whether or not the small model reached the goal.
DEMO_EXIT_CODES = {"success": 0, "done": 0, "max_steps": 0, "interrupted": 130}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="the planner explores a cave on the local server until it finds open sky")
    add_config_flags(p, "--port", "--username", "--version", "--llm")
    add_server_flags(p)
    add_tools_flags(p)
    add_viewer_flags(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_from_args(args)
    server = loaded.config.server.model_copy(update={"kind": "local", "scenario": EXPLORE_SCENARIO})
    config = loaded.config.model_copy(update={"server": server, "llm": args.cfg_llm or DEMO_LLM})
    loaded = LoadedConfig(config, loaded.file, loaded.sources)
    world = world_options(args, config)
    assert world.scenario is not None and world.scenario.goal and world.scenario.success, "the cave states its task"
    goal, check = world.scenario.goal, world.scenario.success
    print(f"goal: {goal} (scenario {EXPLORE_SCENARIO}, LLM {config.llm})")
    with trace_path(None, config, goal) as trace:
        result = run_and_print(loaded, args, world, Understanding.given(goal, check), DEMO_OPTIONS, trace,
                               on_ready=_describe)
    return DEMO_EXIT_CODES.get(result.outcome, 1)


def _describe(session: WorldSession) -> None:
    """Where the bot stands and what is around it, before the planner starts."""
    bot = session.bot
    state = bot.state()
    print(f"bot {state.username} at {state.position.text()}, facing {state.facing} "
          f"(yaw {state.yaw_deg:.1f} deg, pitch {state.pitch_deg:.1f} deg), "
          f"health {state.health:g}, food {state.food:g}")
    box = bot.scan_box(VIEW_RADIUS, VIEW_HALF_HEIGHT)
    counts = ", ".join(f"{name} {n}" for name, n in block_counts(box))
    print(f"blocks within {VIEW_RADIUS} horizontally and {VIEW_HALF_HEIGHT} vertically: {counts}")
    legend = " ".join(f"{c}={name or 'unloaded'}" for name, c in MAP_CHARS.items())
    print(f"at head height (north up, @ = bot; {legend}, #=other):")
    for row in top_down(box, dy=1):
        print(f"  {row}")
