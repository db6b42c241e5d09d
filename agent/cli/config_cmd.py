"""`mcagent config`: the effective configuration and where each value came from."""

from __future__ import annotations

import argparse
import json

from agent.cli.parser import CONFIG_FLAGS, add_config_flags, load_from_args
from agent.config.layers import provenance_table
from agent.server import load_server_settings


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="print the effective configuration and each value's source")
    add_config_flags(p, *CONFIG_FLAGS)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_from_args(args)
    print(f"# config file: {loaded.file or 'none found (defaults)'}")
    _print_table(loaded.table())
    settings, sources = load_server_settings(loaded.config.server.settings)
    print(f"\n# local server settings: {loaded.config.server.settings}")
    _print_table(provenance_table(settings, sources))
    return 0


def _print_table(rows: list[tuple[str, object, str]]) -> None:
    width = max(len(key) for key, _, _ in rows)
    for key, value, source in rows:
        print(f"{key:<{width}}  {json.dumps(value):<30}  # {source}")
