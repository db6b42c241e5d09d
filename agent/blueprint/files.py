"""A blueprint read from a file: the one entry point, choosing the reader by what the file holds,
not by its extension: JSON (Mindcraft's construction blueprint or a Structure dump,
agent/blueprint/mindcraft.py) or gzipped NBT, each schematic format with its own fields."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import Field

from agent.blueprint.errors import FORMATS_READ, BlueprintError
from agent.blueprint.grid import Region, structure_of
from agent.blueprint.litematic import is_litematic, litematic_regions
from agent.blueprint.mcedit import is_mcedit, mcedit_regions
from agent.blueprint.mindcraft import read_json_blueprint
from agent.blueprint.model import Structure
from agent.blueprint.nbt import read_gzipped_nbt
from agent.blueprint.sponge import is_sponge, sponge_regions, sponge_version
from agent.mc.geometry import Frozen


class BlueprintFile(Frozen):
    """A schematic file as read: its format and the structure it holds."""

    format: str = Field(description="`Sponge v2`, `MCEdit`, `Litematica v6`...")
    structure: Structure


class Reader(NamedTuple):
    """One format: whether a file's root compound is of it, its name for that file, its regions."""

    recognises: Callable[[dict[str, Any]], bool]
    name: Callable[[dict[str, Any]], str]
    regions: Callable[[dict[str, Any]], list[Region]]


READERS = [
    Reader(is_sponge, lambda root: f"Sponge v{sponge_version(root)}", sponge_regions),
    Reader(is_litematic, lambda root: f"Litematica v{root.get('Version')}", litematic_regions),
    Reader(is_mcedit, lambda root: "MCEdit", mcedit_regions),
]


def read_blueprint_file(path: Path) -> BlueprintFile:
    """The file's format and structure; for anything else BlueprintError, one line naming the
    file and what is wrong with it."""
    try:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise BlueprintError(f"cannot be read ({e.strerror})") from None
        if data.lstrip()[:1] in (b"{", b"["):
            return BlueprintFile(format="JSON", structure=read_json_blueprint(path))
        root = read_gzipped_nbt(data)
        for reader in READERS:
            if reader.recognises(root):
                return BlueprintFile(format=reader.name(root), structure=structure_of(path.name, reader.regions(root)))
        raise BlueprintError(f"holds NBT of no schematic format read here ({FORMATS_READ})")
    except BlueprintError as e:
        raise BlueprintError(f"{path}: {e}") from None


def read_blueprint(path: Path) -> Structure:
    """The structure a schematic file holds."""
    return read_blueprint_file(path).structure
