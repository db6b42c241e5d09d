"""`mcagent blueprint FILE`: what a schematic file holds (format, size, blocks, the bill of
materials, each layer as letters), read as `mcagent run --blueprint` would read it. A file that
cannot be read is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
from pathlib import Path

from agent.blueprint.files import read_blueprint_file
from agent.blueprint.text import describe


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("blueprint", help="show what a schematic file holds: size, materials, each layer")
    p.add_argument("file", type=Path, metavar="FILE", help="a Sponge .schem, MCEdit .schematic or Litematica .litematic")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    print(describe(read_blueprint_file(args.file)))
    return 0
