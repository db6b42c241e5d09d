"""Argument parsing shared by the subcommands: one-line errors and the config flags."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from agent.config import LoadedConfig, load_config


class OneLineArgumentParser(argparse.ArgumentParser):
    """Bad arguments give one line naming the problem, not a usage dump."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(2)


def add_command_group(sub: argparse._SubParsersAction, name: str, help_text: str) -> argparse._SubParsersAction:
    """`mcagent NAME SUBCOMMAND ...`: a command whose subcommands each register on what this returns
    (e.g. `mcagent llm check`); naming none is a one-line error that lists them."""
    group = sub.add_parser(name, help=help_text, description=help_text)
    return group.add_subparsers(dest=f"{name}_command", required=True, metavar="SUBCOMMAND")


# Flags that override config keys: flag -> (dotted config key, type, help).
CONFIG_FLAGS: dict[str, tuple[str, type, str]] = {
    "--host": ("server.host", str, "server address (default 127.0.0.1)"),
    "--port": ("server.port", int, "server port; 0 picks a free one for a local server"),
    "--username": ("username", str, "bot name, 3-16 letters, digits or underscores"),
    "--version": ("mc_version", str, "Minecraft version, e.g. 1.20.4"),
    "--llm": ("llm", str, "LLM backend spec"),
}


def add_config_flags(parser: argparse.ArgumentParser, *flags: str) -> None:
    """Adds --config and the named override flags; `load_from_args` reads them back."""
    parser.add_argument("--config", type=Path, metavar="FILE", help="config file (default ./mcagent.yaml)")
    for flag in flags:
        key, kind, help_text = CONFIG_FLAGS[flag]
        parser.add_argument(flag, dest=_dest(key), type=kind, default=None, help=help_text)


def add_world_flags(parser: argparse.ArgumentParser) -> None:
    """--server local|HOST:PORT and --scenario, for commands that put the bot in a world."""
    parser.add_argument(
        "--server", dest="cfg_server_target", type=server_target, metavar="local|HOST:PORT",
        help="start the local server (default) or join HOST:PORT",
    )
    add_scenario_flag(parser)


def add_viewer_flags(parser: argparse.ArgumentParser) -> None:
    """--viewer to watch the bot in a browser, with its port and camera."""
    parser.add_argument("--viewer", action="store_true", help="start the web viewer and print its URL")
    parser.add_argument("--viewer-port", dest=_dest("viewer.port"), type=int, metavar="PORT", help="viewer port (default 3007)")
    parser.add_argument(
        "--first-person", dest=_dest("viewer.first_person"), action="store_const", const=True,
        help="view through the bot's eyes (default: from behind it)",
    )


def add_scenario_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scenario", dest=_dest("server.scenario"), metavar="NAME|PATH",
        help="local server: build a scenario from server-config/scenarios/ (or a YAML file) before anyone joins",
    )


def add_public_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--public", dest=_dest("server.public"), action="store_const", const=True,
        help="local server: allow a --host other than loopback (offline mode: anyone there can take any name)",
    )


def server_target(text: str) -> dict[str, object]:
    """An argparse type: `local`, or HOST:PORT of a server to join, as config overrides."""
    if text == "local":
        return {"server.kind": "local"}
    host, sep, port = text.rpartition(":")
    if not (sep and host and port.isdigit()):
        raise argparse.ArgumentTypeError(f"expected local or HOST:PORT, got {text!r}")
    return {"server.kind": "remote", "server.host": host, "server.port": int(port)}


def load_from_args(args: argparse.Namespace) -> LoadedConfig:
    overrides = {key: getattr(args, _dest(key), None) for key, _, _ in CONFIG_FLAGS.values()}
    for key in ("server.scenario", "server.public", "viewer.port", "viewer.first_person"):
        overrides[key] = getattr(args, _dest(key), None)
    overrides.update(getattr(args, "cfg_server_target", None) or {})
    return load_config(args.config, overrides)


def _dest(key: str) -> str:
    return "cfg_" + key.replace(".", "__")


def seconds(text: str) -> float:
    """An argparse type: a duration in seconds, more than 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds as a number, got {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected seconds in (0, 3600], got {text}")
    return value


def count(text: str) -> int:
    """An argparse type: a whole number from 1 to 1,000,000."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= value <= 1_000_000:
        raise argparse.ArgumentTypeError(f"expected 1 to 1000000, got {text}")
    return value
