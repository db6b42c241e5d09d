"""--tools-dir, for every command that loads tools, and the tools it names with the config's.

Apart from `mcagent tools` so that commands that only call tools (`call`, `replay --live`) do not
import what the listing and its `--goal` offer need (the planner, SGLang).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agent.config import LoadedConfig
from agent.tools import Toolbox, ToolSource, load_toolbox, standard_sources


def add_tools_flags(parser: argparse.ArgumentParser) -> None:
    """--tools-dir for every command that loads tools; `load_tools` reads it back."""
    parser.add_argument(
        "--tools-dir",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="another folder of tool folders (repeatable); loaded like skills/",
    )


def tool_sources(loaded: LoadedConfig, args: argparse.Namespace) -> list[ToolSource]:
    """The folders the config and --tools-dir name; config tool_folders are relative to the config file."""
    base = loaded.file.parent if loaded.file else None
    config = loaded.config
    return standard_sources(config.world, config.tool_folders, base, args.tools_dir, config.tool_modules)


def load_tools(loaded: LoadedConfig, args: argparse.Namespace) -> Toolbox:
    """Every tool of those folders, loaded; what failed to load is in the toolbox's errors."""
    return load_toolbox(tool_sources(loaded, args))
