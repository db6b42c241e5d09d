"""Blueprints: a structure's blocks read from a file or a template, its bill of materials, and
where it is placed in the world (agent/checks' Plan, which mc-build builds and the check judges)."""

from agent.blueprint.errors import BlueprintError
from agent.blueprint.files import BlueprintFile, read_blueprint, read_blueprint_file
from agent.blueprint.model import Structure

__all__ = ["BlueprintError", "BlueprintFile", "Structure", "read_blueprint", "read_blueprint_file"]
