"""Flags that shape the world a command puts the bot in, turned into the session's WorldOptions."""

from __future__ import annotations

import argparse
from pathlib import Path

from agent.config import AgentConfig
from agent.server import load_scenario
from agent.session import WorldOptions


def add_server_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--world", type=Path, metavar="DIR", help="folder that persists the world")
    parser.add_argument("--generator", help="world generator (superflat, diamond_square, ...)")
    parser.add_argument("--seed", type=int, help="world seed")


def add_scenario_seed_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scenario-seed", type=int, default=0, metavar="N",
        help="vary the scenario as eval seed N does: turned, mirrored, another spawn facing (0: as written)",
    )


def world_options(args: argparse.Namespace, config: AgentConfig) -> WorldOptions:
    """The flags and the config's scenario (varied by --scenario-seed where the command has it)."""
    scenario = None
    if config.server.kind == "local" and config.server.scenario:
        scenario = load_scenario(config.server.scenario).transformed(getattr(args, "scenario_seed", 0))
    return WorldOptions(
        world_dir=getattr(args, "world", None),
        generator=getattr(args, "generator", None),
        world_seed=getattr(args, "seed", None),
        scenario=scenario,
        viewer=getattr(args, "viewer", False),
    )
